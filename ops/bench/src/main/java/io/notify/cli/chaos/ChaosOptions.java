package io.notify.cli.chaos;

import io.notify.common.config.Settings;
import io.notify.registry.lease.NodeRegistryConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a chaos run is shaped. {@link #quick} keeps every scenario well under 5 minutes on a 2-core
 * machine (2 faults, 4–8 s apart, short registry timings); the full mode follows the issue (a
 * gateway killed ≥ 20 times, 30–60 s apart; registry defaults). A frozen node is paused until the
 * router has judged it dead and removed its members ({@link #frozenFor}).
 *
 * @param faults     faults per scenario, 0 = the mode's default (kill-gateway 20, others 3; quick 2)
 * @param rooms      rooms the devices are spread over (device {@code d} subscribes to room {@code d % rooms});
 *                   0 = user streams only
 * @param observe    how long a run watches deliveries after a router or infrastructure fault
 * @param downFor    how long the broker or Redis stays down in a restart scenario
 * @param settle     bound of the final wait for every acknowledged event to reach every device
 * @param withheld   the share of the events published with a short ttl or recalled ({@link Withheld}); by
 *                   default {@link Withheld.Shares#DEFAULT}
 */
record ChaosOptions(List<Scenario> scenarios, boolean quick, int faults, Duration intervalMin, Duration intervalMax,
                    int users, int devicesPerUser, int rooms, double rate, Duration observe, Duration downFor, Duration settle,
                    Map<String, String> registryTimings, Withheld.Shares withheld) {

    static ChaosOptions of(List<Scenario> scenarios, boolean quick, int faults, int users, int devices, int rooms,
                           double rate) {
        Map<String, String> timings = new LinkedHashMap<>();
        if (quick) {
            timings.put("notify.registry.lease", "12s");
            timings.put("notify.registry.renew-interval", "4s");
            timings.put("notify.registry.alive-ttl", "5s");
            timings.put("notify.registry.alive-refresh", "1s");
        }
        return new ChaosOptions(scenarios, quick, faults,
                quick ? Duration.ofSeconds(1) : Duration.ofSeconds(30), quick ? Duration.ofSeconds(3) : Duration.ofSeconds(60),
                users, devices, rooms, rate, quick ? Duration.ofSeconds(5) : Duration.ofSeconds(20),
                quick ? Duration.ofSeconds(3) : Duration.ofSeconds(10), Duration.ofSeconds(quick ? 60 : 120), timings,
                Withheld.Shares.DEFAULT);
    }

    /** The same run watching each fault's deliveries for {@code observe} (positive) instead of the mode's default. */
    ChaosOptions watching(Duration observe) {
        if (observe.isZero() || observe.isNegative()) {
            throw new IllegalArgumentException("--watch must be positive");
        }
        return new ChaosOptions(scenarios, quick, faults, intervalMin, intervalMax, users, devicesPerUser, rooms, rate,
                observe, downFor, settle, registryTimings, withheld);
    }

    /** The same run withholding {@code shares} of its events instead. */
    ChaosOptions withholding(Withheld.Shares shares) {
        return new ChaosOptions(scenarios, quick, faults, intervalMin, intervalMax, users, devicesPerUser, rooms, rate,
                observe, downFor, settle, registryTimings, shares);
    }

    int faultsFor(Scenario s) {
        if (faults > 0) {
            return faults;
        }
        if (quick) {
            return 2;
        }
        return s == Scenario.KILL_GATEWAY ? 20 : 3;
    }

    /**
     * Every gateway's settings: the registry timings and, when a rolling restart is among the
     * scenarios, a drain window (2 s quick, 8 s full; the stack's own is 0 s) so that a node's
     * SIGTERM spreads its clients' reconnects as in a real deploy: window + 1 s grace + the receipts
     * producer's flush (≤ 5 s) stay within the 15 s a restart gives a process to stop.
     */
    Map<String, String> gatewaySettings() {
        Map<String, String> s = new LinkedHashMap<>(registryTimings);
        if (scenarios.contains(Scenario.ROLLING_RESTART)) {
            s.put("notify.gateway.drain-window", quick ? "2s" : "8s");
            s.put("notify.gateway.drain-grace", "1s");
        }
        return s;
    }

    /** The lease a gateway runs with (the registry default unless the mode shortens it). */
    Duration lease() {
        return registry().lease();
    }

    Duration aliveTtl() {
        return registry().aliveTtl();
    }

    /**
     * How long pause-gateway freezes a node: past three liveness TTLs (the router has stopped routing
     * to it and removed its members as of a dead node) or past its lease, whichever comes first, plus
     * 2 s. On SIGCONT it must find its liveness key gone and register everything again.
     */
    Duration frozenFor() {
        Duration dead = aliveTtl().multipliedBy(3);
        return (lease().compareTo(dead) < 0 ? lease() : dead).plusSeconds(2);
    }

    /** The registry timings the gateways are given, read as a gateway reads them. */
    private NodeRegistryConfig registry() {
        return NodeRegistryConfig.load(Settings.of(registryTimings));
    }
}
