package io.notify.cli.bench;

import io.notify.cli.bench.report.RunsOptions;
import io.notify.cli.bench.report.ResultOptions;
import io.notify.cli.bench.report.ProgressBar;
import io.notify.cli.bench.report.ResultFiles;
import io.notify.platform.PlatformStack;
import io.notify.common.config.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code notifyctl bench fanout}: routed events/s of fanout-streams with registered users, under
 * each processing guarantee, against a raw Kafka consume→produce relay on the same broker in the
 * same invocation; the router's Redis reads per routed event; and query API reads/s. Everything
 * runs as child processes (broker, Redis, fanout-streams, relay, query load) so each has its own
 * heap; runs interleave modes (relay, guarantee 1, guarantee 2, relay, ...) so drift on a busy
 * machine hits all alike. Every wait is bounded; children are stopped even when a run fails.
 */
@Command(name = "fanout", mixinStandardHelpOptions = true,
        description = "fanout-streams routed events/s, Redis reads per event and query reads/s vs a raw Kafka relay.")
public final class FanoutBench implements Callable<Integer> {

    @Option(names = "--events", description = "Events pre-produced per run (default: ${DEFAULT-VALUE}).", defaultValue = "200000")
    long events;

    @Option(names = "--users", description = "Registered users, one connection each (default: ${DEFAULT-VALUE}).", defaultValue = "10000")
    int users;

    @Option(names = "--recipients", description = "Users each event is addressed to, 1..1000 (default: ${DEFAULT-VALUE}); "
            + "--events counts events, so a run routes events x recipients.", defaultValue = "1")
    int recipients;

    @Option(names = "--instances", description = "fanout-streams instances (child JVMs, one application id) "
            + "(default: ${DEFAULT-VALUE}).", defaultValue = "1")
    int instances;

    @Option(names = "--event-bytes", description = "Serialized event size (default: ${DEFAULT-VALUE}).", defaultValue = "300")
    int eventBytes;

    @Mixin
    RunsOptions runOptions;

    @Mixin
    ResultOptions resultOptions;

    @Option(names = "--guarantees", split = ",", description = "Processing guarantees to measure (default: ${DEFAULT-VALUE}).",
            defaultValue = "exactly_once_v2,at_least_once")
    List<String> guarantees;

    @Option(names = "--query-seconds", description = "Query load per run, seconds (default: ${DEFAULT-VALUE}).", defaultValue = "10")
    int querySeconds;

    @Option(names = "--query-concurrency", description = "Closed-loop query lanes (default: ${DEFAULT-VALUE}).", defaultValue = "32")
    int queryConcurrency;

    @Option(names = "--lease", description = "Registry lease; renewed every third of it (default: ${DEFAULT-VALUE}, the registry's). "
            + "45s is the old default, whose renewals every 15 s invalidated the router's cache.", defaultValue = "30m")
    String lease;

    @Option(names = "--commit-interval", description = "notify.fanout.commit-interval (default: the app's default for the guarantee).")
    String commitInterval;

    @Option(names = "--deadline", description = "Bound of each pre-produce, relay and routing phase (default: ${DEFAULT-VALUE}).",
            defaultValue = "10m")
    String deadline;

    private ProgressBar bar;
    private volatile String status = "";

    @Override
    public Integer call() throws Exception {
        for (String g : guarantees) {
            if (!g.equals("exactly_once_v2") && !g.equals("at_least_once")) {
                System.err.println("--guarantees: each must be exactly_once_v2 or at_least_once, got '" + g + "'");
                return 2;
            }
        }
        if (events < 2 || users < 2 || runOptions.runs() < 1 || querySeconds < 1 || queryConcurrency < 1 || instances < 1 || instances > 6) {
            System.err.println("--events and --users must be at least 2; --runs, --query-seconds, --query-concurrency at least 1;"
                    + " --instances 1..6 (notify.events has 6 partitions)");
            return 2;
        }
        if (recipients < 1 || recipients > Math.min(FanoutEvents.MAX_RECIPIENTS, users)) {
            System.err.println("--recipients must be 1.." + FanoutEvents.MAX_RECIPIENTS + " and at most --users");
            return 2;
        }
        FanoutRouteRun.Plan plan = new FanoutRouteRun.Plan(events, users, new FanoutEvents(eventBytes, recipients),
                Settings.parseDurationArg("--lease", lease), commitInterval == null ? null : Settings.parseDurationArg("--commit-interval", commitInterval),
                Settings.parseDurationArg("--deadline", deadline), Duration.ofSeconds(querySeconds), queryConcurrency, instances);
        Path work = Files.createTempDirectory("notify-bench-fanout-");
        String base = "bf" + Long.toString(System.currentTimeMillis(), 36) + "-";
        List<LoadResult> baseline = new ArrayList<>();
        List<FanoutRouteRun.Result> results = new ArrayList<>();
        PlatformStack.quietBrokerStartup();
        int steps = runOptions.runs() * (1 + guarantees.size());
        bar = ProgressBar.start().track(() -> (double) (baseline.size() + results.size()) / steps, () -> status);
        progress("bench fanout: broker and Redis starting (child processes); work dir " + work);
        try (FanoutBackends backends = FanoutBackends.start()) {
            for (int r = 1; r <= runOptions.runs(); r++) {
                String label = "run " + r + "/" + runOptions.runs() + " ";
                baseline.add(baseline(backends.bootstrapServers(), backends.admin(), plan, base + "r" + r + "-relay.", r, work,
                        s -> progress(label + "baseline-relay: " + s)));
                for (String g : guarantees) {
                    FanoutRouteRun route = new FanoutRouteRun(backends, s -> progress(label + g + ": " + s));
                    String prefix = base + "r" + r + "-" + (g.startsWith("exactly") ? "eos" : "alo") + ".";
                    FanoutRouteRun.Result res = route.run(plan, prefix, g, r, work.resolve("r" + r + "-" + g));
                    progress(String.format("%s%s: %,.0f routed events/s (%,.0f recipients/s), %.4f redis reads/recipient (steady), %,.0f query reads/s",
                            label, g, res.eventsPerSecond(), res.routingsPerSecond(), res.steadyRedisReadsPerEvent(),
                            res.query().eventsPerSecond()));
                    results.add(res);
                }
            }
        } catch (Exception e) {
            bar.close();
            System.err.println("bench fanout failed: " + e + "\n  logs kept in " + work);
            return 1;
        }
        bar.close();
        FanoutReport report = FanoutReport.of(settings(plan), baseline, results);
        report.print(System.out);
        System.err.println("wrote " + ResultFiles.write(resultOptions.out(), "fanout", report.at(), report, report.chart()));
        ResultFiles.deleteTree(work);
        return 0;
    }

    private static LoadResult baseline(String bootstrap, Admin admin, FanoutRouteRun.Plan plan, String prefix, int run,
                                       Path work, Consumer<String> progress) throws Exception {
        String in = prefix + "relay-in";
        String out = prefix + "relay-out";
        BenchTopics.create(admin, List.of(new NewTopic(in, 6, (short) 1), new NewTopic(out, 6, (short) 1)));
        progress.accept("pre-producing " + plan.events() + " events to " + in);
        EventPreload.produce(bootstrap, in, plan.eventBytes(), plan.events(), plan.users(), run, plan.deadline());
        progress.accept("relaying (child JVM)");
        LoadResult r = ChildLoad.run(RelayLoad.class, List.of(bootstrap, in, out, Long.toString(plan.events()),
                Long.toString(plan.deadline().toMillis())), work.resolve("r" + run + "-relay.log"), plan.deadline().plusSeconds(60));
        progress.accept(String.format("%,.0f records/s (%,d relayed, %d failed)", r.eventsPerSecond(), r.events(), r.failures()));
        if (r.events() < plan.events()) {
            throw new IOException("baseline relay moved only " + r.events() + " of " + plan.events() + " records");
        }
        return r;
    }

    private Map<String, Object> settings(FanoutRouteRun.Plan plan) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("events", events);
        s.put("users", users);
        s.put("eventBytes", eventBytes);
        s.put("recipientsPerEvent", recipients);
        s.put("instances", instances);
        s.put("runs", runOptions.runs());
        s.put("guarantees", guarantees);
        s.put("eventsPartitions", 6);
        s.put("nodes", BenchConnections.NODES);
        s.put("lease", plan.lease().toString());
        s.put("renewInterval", plan.lease().dividedBy(3).toString());
        s.put("commitInterval", plan.commitInterval() == null ? "app default" : plan.commitInterval().toString());
        s.put("fanoutJvm", "-Xmx512m, 1 stream thread, defaults otherwise; one JVM per instance");
        s.put("querySeconds", querySeconds);
        s.put("queryConcurrency", queryConcurrency);
        s.put("routedMeasure", "notify_fanout_deliveries_total + notify_fanout_undelivered_total from /metrics, "
                + "first progress sample to all routed, polled every 100 ms");
        return s;
    }

    private void progress(String line) {
        status = line;
        bar.println(line);
    }
}
