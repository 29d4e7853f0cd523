package io.notify.cli.chaos;

import io.notify.cli.bench.PrometheusText;
import io.notify.cli.bench.pipeline.DeliveryPaths;
import io.notify.cli.bench.pipeline.HopBudget;
import io.notify.cli.stack.ChildAgent;
import io.notify.platform.PlatformStack;
import io.notify.platform.ServiceProcess;
import io.notify.platform.StackOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One chaos run: starts the multi-process stack (broker, Redis, 2 fanout-streams, 3 gateways) and
 * the {@link ChaosAgent} (its own JVM), then for each scenario produces at a steady rate, injects
 * the scenario's faults at random intervals, stops producing and has the agent judge every event
 * of the scenario's window ({@link Verifier}). Scenarios run one after another on the same stack.
 */
final class ChaosRun {

    /**
     * What one scenario did and how it was judged; {@code error}: why it could not finish (null: it
     * did). {@code hops} and {@code paths}: where the scenario's deliveries spent their time and how
     * they reached the clients, from the gateways' metrics over the whole scenario (a gateway
     * restarted in it counts from its restart; null when a gateway could not be read).
     */
    record ScenarioResult(String scenario, List<Map<String, Object>> faults, Verifier.Verdict verdict,
                          List<String> servicesDownAtEnd, long durationMs, boolean passed, String error,
                          List<HopBudget.Hop> hops, DeliveryPaths paths) {
    }

    private static final Duration READY_BOUND = Duration.ofSeconds(180);

    private ChaosRun() {
    }

    /**
     * The stack a run uses: {@code fanouts} fanout-streams instances, {@code gateways} nodes, one Redis
     * or a Redis Cluster, and {@code fanoutSettings} over the stack's own for every instance.
     */
    record Shape(int fanouts, int gateways, boolean redisCluster, Map<String, String> fanoutSettings) {
        static final Shape DEFAULT = new Shape(2, 3, false, Map.of());
    }

    static List<ScenarioResult> run(ChaosOptions o, Path work, long seed, Consumer<String> progress) throws Exception {
        return run(o, work, seed, Shape.DEFAULT, progress);
    }

    static List<ScenarioResult> run(ChaosOptions o, Path work, long seed, Shape shape, Consumer<String> progress)
            throws Exception {
        if (shape.redisCluster() && o.scenarios().contains(Scenario.RESTART_REDIS)) {
            throw new IllegalArgumentException("restart-redis kills the stack's one Redis: run it without --redis-cluster");
        }
        StackOptions so = StackOptions.of(work, shape.fanouts(), shape.gateways()).withGatewaySettings(o.gatewaySettings())
                .withFanoutSettings(shape.fanoutSettings()).withRedisCluster(shape.redisCluster());
        if (!shape.fanoutSettings().isEmpty()) {
            progress.accept("fanout-streams settings: " + shape.fanoutSettings());
        }
        List<ScenarioResult> results = new ArrayList<>();
        try (PlatformStack stack = PlatformStack.start(so, progress);
             ChildAgent agent = startAgent(stack, o, work, progress);
             RouteWatch routes = new RouteWatch(stack).warmUp()) {
            Faults faults = new Faults(stack, agent, routes, o, new SplittableRandom(seed));
            SplittableRandom pacing = new SplittableRandom(seed + 1);
            progress.accept("warming up: one event per user and per room until every device has one on each stream");
            ChaosAgent.Warm warm = agent.call("warmup 120000", "warm", ChaosAgent.Warm.class, Duration.ofSeconds(180));
            if (warm.devicesWithEvents() < o.users() * o.devicesPerUser()) {
                throw new IllegalStateException("only " + warm.devicesWithEvents() + " devices got a warm-up event in "
                        + warm.ms() + " ms; see " + agent.log());
            }
            for (Scenario s : o.scenarios()) {
                long start = System.nanoTime();
                List<Map<String, Object>> done = new ArrayList<>();
                try {
                    results.add(scenario(s, o, stack, agent, faults, pacing, done, progress));
                } catch (Exception e) {
                    // A fault the stack did not come back from fails the run, with what was measured so far.
                    progress.accept(s.cliName + ": FAIL, could not finish: " + e);
                    results.add(new ScenarioResult(s.cliName, done, null, faults.servicesDown(),
                            (System.nanoTime() - start) / 1_000_000, false, e.toString(), null, null));
                    break;
                }
            }
        }
        return results;
    }

    private static ChildAgent startAgent(PlatformStack stack, ChaosOptions o, Path work, Consumer<String> progress)
            throws Exception {
        int clients = o.users() * o.devicesPerUser();
        progress.accept("starting the load agent: " + clients + " SDK clients (" + o.users() + " users × "
                + o.devicesPerUser() + " devices, spread over " + o.rooms() + " rooms) over " + stack.gateways().size()
                + " gateways; withheld: " + o.withheld());
        String gateways = String.join(",", stack.gateways().stream().map(g -> g.baseUrl()).toList());
        List<String> args = new ArrayList<>(List.of(
                "gateways=" + gateways, "bootstrap=" + stack.bootstrapServers(), "prefix=" + stack.prefix(),
                "keys=" + work, "users=" + o.users(), "devices=" + o.devicesPerUser(), "rooms=" + o.rooms(), "lifetime=7200"));
        args.addAll(o.withheld().args());
        ChildAgent agent = ChildAgent.start(ChaosAgent.class.getName(), List.of("-Xmx512m", "-Xss512k"), args,
                work.resolve("agent.log"));
        try {
            agent.await("ready", READY_BOUND);
            return agent;
        } catch (Exception e) {
            agent.close();
            throw e;
        }
    }

    private static ScenarioResult scenario(Scenario s, ChaosOptions o, PlatformStack stack, ChildAgent agent, Faults faults,
                                           SplittableRandom pacing, List<Map<String, Object>> reports,
                                           Consumer<String> progress) throws Exception {
        long start = System.nanoTime();
        List<Long> pids = stack.gateways().stream().map(ServiceProcess::pid).toList();
        List<PrometheusText> before = scrapeGateways(stack);
        int n = o.faultsFor(s);
        progress.accept(s.cliName + ": producing " + o.rate() + " events/s, " + n + " fault(s)");
        agent.send("produce " + o.rate());
        agent.await("producing", Duration.ofSeconds(10));
        for (int i = 1; i <= n; i++) {
            long wait = o.intervalMin().toMillis()
                    + pacing.nextLong(Math.max(1, o.intervalMax().toMillis() - o.intervalMin().toMillis() + 1));
            progress.accept(s.cliName + ": fault " + i + "/" + n + " in " + wait + " ms (" + agent.progress() + ")");
            TimeUnit.MILLISECONDS.sleep(wait); // the run's schedule: steady load between faults
            Map<String, Object> r = faults.inject(s);
            progress.accept(s.cliName + ": fault " + i + "/" + n + " " + r);
            reports.add(r);
        }
        progress.accept(s.cliName + ": stopping the load; waiting up to " + o.settle().toSeconds()
                + " s for every acknowledged event to reach every device");
        agent.send("verify " + o.settle().toMillis());
        Verifier.Verdict v = io.notify.protocol.NotifyJson.mapper().readValue(agent.await("verdict", o.settle().plusSeconds(60)),
                Verifier.Verdict.class);
        List<String> down = faults.servicesDown();
        boolean passed = v.passed() && down.isEmpty();
        progress.accept(s.cliName + ": " + (passed ? "PASS" : "FAIL") + " " + v);
        List<PrometheusText> after = before == null ? null : scrapeGateways(stack);
        List<HopBudget.Hop> hops = null;
        DeliveryPaths paths = null;
        if (after != null) {
            // A gateway restarted in the scenario (another pid) started its counters again: it counts from zero.
            List<PrometheusText> base = new ArrayList<>();
            for (int i = 0; i < after.size(); i++) {
                boolean same = i < pids.size() && pids.get(i) == stack.gateways().get(i).pid();
                base.add(same ? before.get(i) : new PrometheusText(""));
            }
            hops = HopBudget.between(base, after);
            paths = DeliveryPaths.between(base, after);
            progress.accept(s.cliName + ": hops " + HopBudget.line(hops));
            progress.accept(s.cliName + ": delivery paths " + paths);
        }
        return new ScenarioResult(s.cliName, reports, v, down, (System.nanoTime() - start) / 1_000_000, passed, null,
                hops, paths);
    }

    /** Every gateway's {@code /metrics} in the stack's order; null when one cannot be read. */
    private static List<PrometheusText> scrapeGateways(PlatformStack stack) throws InterruptedException {
        try {
            return DeliveryPaths.scrape(stack.gateways());
        } catch (IOException e) {
            return null;
        }
    }
}
