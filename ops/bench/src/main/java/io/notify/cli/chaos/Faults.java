package io.notify.cli.chaos;

import io.notify.cli.bench.PrometheusText;
import io.notify.cli.bench.pipeline.DeliveryPaths;
import io.notify.cli.stack.ChildAgent;
import io.notify.platform.PlatformStack;
import io.notify.platform.ServiceProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The faults themselves, one method per scenario: each injects one fault into the running stack,
 * measures what the scenario reports, brings the stack back to full strength and returns the
 * figures of that fault (a map, so the JSON and the table show each scenario's own columns).
 * A figure of -1 was not observed within its bound (e.g. deliveries had not resumed yet).
 */
final class Faults {

    private static final Duration AGENT_REPLY = Duration.ofSeconds(30);

    private final PlatformStack stack;
    private final ChildAgent agent;
    private final RouteWatch routes;
    private final ChaosOptions options;
    private final SplittableRandom random;

    Faults(PlatformStack stack, ChildAgent agent, RouteWatch routes, ChaosOptions options, SplittableRandom random) {
        this.stack = stack;
        this.agent = agent;
        this.routes = routes;
        this.options = options;
        this.random = random;
    }

    Map<String, Object> inject(Scenario s) throws Exception {
        return switch (s) {
            case KILL_GATEWAY -> killGateway();
            case PAUSE_GATEWAY -> pauseGateway();
            case KILL_ROUTER -> killRouter();
            case RESTART_BROKER -> restartBroker();
            case RESTART_REDIS -> restartRedis();
            case ROLLING_RESTART -> rollingRestart();
        };
    }

    /**
     * kill -9 of a random gateway: its clients resume elsewhere; routes to it stop; then it comes
     * back. The surviving nodes' delivery paths from just before the kill until the killed node is
     * back say how much the safety net (rechecks, gap fills) carried while its clients moved over.
     */
    private Map<String, Object> killGateway() throws Exception {
        ServiceProcess g = pickGatewayWithClients();
        List<ServiceProcess> survivors = stack.gateways().stream().filter(x -> x != g).toList();
        long routedBefore = routes.routed(g.name());
        agent.send("fault " + g.name());
        int onNode = Integer.parseInt(agent.await("marked", AGENT_REPLY));
        List<PrometheusText> survivorsBefore = DeliveryPaths.scrape(survivors);
        long t0 = System.nanoTime();
        g.kill();
        RouteWatch.RouteStop stop = routes.awaitStop(g.name(), t0, routedBefore, options.aliveTtl().multipliedBy(3).plusSeconds(10));
        ChaosAgent.Resumed resumed = agent.call("resumed 60000", "resumed", ChaosAgent.Resumed.class, Duration.ofSeconds(90));
        long restartMs = restart(g);
        DeliveryPaths paths = DeliveryPaths.between(survivorsBefore, DeliveryPaths.scrape(survivors));
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("node", g.name());
        r.put("clientsOnNode", onNode);
        r.put("survivorsLive", paths.live());
        r.put("survivorsReplayed", paths.replayed());
        r.put("survivorsRecheckFound", paths.recheckFound());
        r.put("survivorsGapFills", paths.gapFills());
        r.put("survivorsSafetyNetPct", Math.round(10_000 * paths.safetyNetShare()) / 100.0);
        r.put("clientsResumedMs", resumed.resumedMs());
        r.put("routesStoppedMs", stop.lastRouteMs());
        r.put("aliveKeyGoneMs", stop.aliveKeyGoneMs());
        r.put("routedAfterKill", stop.routedAfterFault());
        r.put("restartMs", restartMs);
        return r;
    }

    /** SIGSTOP of a random gateway until the router gave it up, then SIGCONT: how long until the router noticed, what went to it meanwhile. */
    private Map<String, Object> pauseGateway() throws Exception {
        ServiceProcess g = pickGatewayWithClients();
        long routedBefore = routes.routed(g.name());
        long t0 = System.nanoTime();
        g.pause();
        RouteWatch.RouteStop stop;
        long routedAtResume;
        try {
            stop = routes.awaitStop(g.name(), t0, routedBefore, options.aliveTtl().multipliedBy(3).plusSeconds(10));
            long pauseUntil = t0 + options.frozenFor().toNanos();
            long left = pauseUntil - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.sleep(left); // the fault itself: frozen until the router gave the node up
            }
            routedAtResume = routes.routed(g.name());
        } finally {
            g.resume();
        }
        long pausedMs = (System.nanoTime() - t0) / 1_000_000;
        long t1 = System.nanoTime();
        g.awaitReady(PlatformStack.START_BOUND);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("node", g.name());
        r.put("pausedMs", pausedMs);
        r.put("detectionMs", stop.aliveKeyGoneMs());
        r.put("routesStoppedMs", stop.lastRouteMs());
        r.put("routedWhileFrozen", routedAtResume - routedBefore);
        r.put("routedAfterDetection", routedAtResume - routedBefore - stop.routedAfterFault());
        r.put("readyAfterResumeMs", (System.nanoTime() - t1) / 1_000_000);
        return r;
    }

    /** kill -9 of a random fanout-streams instance: the other takes its partitions over; then it rejoins. */
    private Map<String, Object> killRouter() throws Exception {
        ServiceProcess f = pick(stack.fanouts());
        agent.send("fault *");
        agent.await("marked", AGENT_REPLY);
        f.kill();
        TimeUnit.MILLISECONDS.sleep(options.observe().toMillis()); // watch deliveries while the survivor takes over
        DeliveryPauses.AfterFault afterKill = agent.call("pauses", "pauses", DeliveryPauses.AfterFault.class, AGENT_REPLY);
        agent.send("fault *");
        agent.await("marked", AGENT_REPLY);
        long restartMs = restart(f);
        TimeUnit.MILLISECONDS.sleep(options.observe().toMillis()); // and while it rejoins
        DeliveryPauses.AfterFault afterRejoin = agent.call("pauses", "pauses", DeliveryPauses.AfterFault.class, AGENT_REPLY);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("instance", f.name());
        r.put("rebalancePauseMs", afterKill.maxPauseMs());
        r.put("deliveringAgainMs", afterKill.recoveredAfterMs());
        r.put("failoverMaxLatencyMs", afterKill.maxLatencyMs());
        r.put("restartMs", restartMs);
        r.put("rejoinPauseMs", afterRejoin.maxPauseMs());
        r.put("rejoinMaxLatencyMs", afterRejoin.maxLatencyMs());
        return r;
    }

    /**
     * A deploy: every gateway in turn gets SIGTERM — it drains, spreading its clients' reconnects
     * over the drain window ({@link ChaosOptions#gatewaySettings}), and exits — and is started again
     * and waited for before the next. Reports how long each took, the fleet's peak reconnect rate
     * against its admission budget, refused handshakes and liveness failures of the other nodes.
     */
    private Map<String, Object> rollingRestart() throws Exception {
        agent.send("fault *");
        agent.await("marked", AGENT_REPLY);
        List<Long> restartMs = new ArrayList<>();
        long t0 = System.nanoTime();
        Map<String, Object> watched;
        try (RollingWatch watch = new RollingWatch(stack.gateways())) {
            for (ServiceProcess g : stack.gateways()) {
                watch.restarting(g);
                restartMs.add(restart(g)); // SIGTERM (drain, exit), start, /readyz
                watch.restarting(null);
            }
            agent.call("resumed 60000", "resumed", ChaosAgent.Resumed.class, Duration.ofSeconds(90));
            watched = watch.figures();
        }
        long rateLimit = Long.parseLong(options.gatewaySettings().getOrDefault("notify.gateway.handshake-rate", "500"));
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("nodes", stack.gateways().size());
        r.put("rolloutMs", (System.nanoTime() - t0) / 1_000_000);
        r.put("restartMsMax", restartMs.stream().mapToLong(Long::longValue).max().orElse(-1));
        r.putAll(watched);
        // the fleet's admission while one node is away: every other node's handshake bucket
        r.put("admissionPerSec", rateLimit * (stack.gateways().size() - 1));
        return r;
    }

    /** kill -9 of the broker, down for a while, started again on the same data. */
    private Map<String, Object> restartBroker() throws Exception {
        agent.send("fault *");
        agent.await("marked", AGENT_REPLY);
        long t0 = System.nanoTime();
        stack.broker().kill();
        TimeUnit.MILLISECONDS.sleep(options.downFor().toMillis()); // the fault itself: the broker stays down
        stack.broker().start();
        long upMs = (System.nanoTime() - t0) / 1_000_000;
        return afterInfrastructure("broker", upMs);
    }

    /** kill -9 of Redis, down for a while, started again empty: the registry has to be rebuilt. */
    private Map<String, Object> restartRedis() throws Exception {
        agent.send("fault *");
        agent.await("marked", AGENT_REPLY);
        long t0 = System.nanoTime();
        stack.redis().kill();
        TimeUnit.MILLISECONDS.sleep(options.downFor().toMillis()); // the fault itself: Redis stays down
        stack.redis().start();
        long upMs = (System.nanoTime() - t0) / 1_000_000;
        return afterInfrastructure("redis", upMs);
    }

    private Map<String, Object> afterInfrastructure(String what, long upMs) throws Exception {
        TimeUnit.MILLISECONDS.sleep(options.observe().toMillis()); // watch deliveries come back
        DeliveryPauses.AfterFault after = agent.call("pauses", "pauses", DeliveryPauses.AfterFault.class, AGENT_REPLY);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("restarted", what);
        r.put("downMs", upMs);
        r.put("deliveryPauseMs", after.maxPauseMs());
        r.put("recoveryMs", after.recoveredAfterMs());
        r.put("maxLatencyMs", after.maxLatencyMs());
        r.put("servicesDown", servicesDown());
        r.put("routersNotReady", routersNotReady());
        return r;
    }

    /**
     * Fanout instances whose {@code /readyz} fails after the observe window: alive but not working
     * (e.g. RUNNING with no task because their group cannot complete a rebalance; docs/operations.md).
     */
    private List<String> routersNotReady() throws InterruptedException {
        List<String> notReady = new ArrayList<>();
        for (ServiceProcess f : stack.fanouts()) {
            if (f.isAlive() && !f.ready()) {
                notReady.add(f.name());
            }
        }
        return notReady;
    }

    /** Names of services that are not running (a fault must never take a service down for good). */
    List<String> servicesDown() {
        return java.util.stream.Stream.concat(stack.fanouts().stream(), stack.gateways().stream())
                .filter(p -> !p.isAlive()).map(ServiceProcess::name).toList();
    }

    private long restart(ServiceProcess p) throws Exception {
        long t = System.nanoTime();
        p.restart(PlatformStack.START_BOUND);
        return (System.nanoTime() - t) / 1_000_000;
    }

    /**
     * A random gateway among those holding devices now (clients do not move back to a restarted
     * node, so after a few kills some nodes are empty, and faulting an empty node tests nothing).
     */
    private ServiceProcess pickGatewayWithClients() throws Exception {
        ChaosAgent.Status status = agent.call("status", "status", ChaosAgent.Status.class, AGENT_REPLY);
        List<ServiceProcess> busy = stack.gateways().stream()
                .filter(g -> status.perNode().getOrDefault(g.name(), 0) > 0).toList();
        return pick(busy.isEmpty() ? stack.gateways() : busy);
    }

    private ServiceProcess pick(List<ServiceProcess> from) {
        return from.get(random.nextInt(from.size()));
    }
}
