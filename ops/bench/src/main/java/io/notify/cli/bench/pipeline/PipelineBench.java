package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.BenchPreferences;
import io.notify.cli.bench.report.RunsOptions;
import io.notify.cli.bench.BaselineRun;
import io.notify.cli.bench.gateway.ClientFleet;
import io.notify.cli.bench.gateway.FleetOptions;
import io.notify.cli.bench.report.ProgressBar;
import io.notify.cli.bench.report.ResultFiles;
import io.notify.platform.DevKeys;
import io.notify.platform.PlatformConfig;
import io.notify.cli.stack.ChildAgent;
import io.notify.platform.PlatformStack;
import io.notify.platform.ServiceProcess;
import io.notify.platform.StackOptions;
import io.notify.common.config.Settings;
import io.notify.protocol.prefs.Channels;
import io.notify.protocol.prefs.Preferences;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code notifyctl bench pipeline}: the whole stack as child processes (broker, Redis, ingest,
 * fanout-streams, gateways), N WebSocket clients (one device per user) in load-agent JVMs, and an
 * open-loop ingest load generator in a JVM of its own; for each offered rate of the sweep, a
 * warm-up, then a measured step: accepted and delivered events/s, end-to-end latency, lost events,
 * and the CPU each server process and the load generators spent per delivered event.
 * A raw Kafka producer → consumer run on the same broker gives the baseline for the ratio. With
 * {@code --ack-modes off,on} the same sweep runs with and without every client acking what it
 * receives, the modes interleaved step by step, for the cost of delivery receipts.
 */
@Command(name = "pipeline", mixinStandardHelpOptions = true,
        description = "Ingest -> Kafka -> fanout -> gateways -> N clients: events/s and end-to-end latency over a sweep of offered rates.")
public final class PipelineBench implements Callable<Integer> {

    @Option(names = "--users", description = "Connected clients, one user and device each (default: ${DEFAULT-VALUE}).", defaultValue = "1000")
    int users;

    @Option(names = "--rates", description = "Offered events/s of the sweep, increasing (default: ${DEFAULT-VALUE}).",
            defaultValue = "250,500,1000,2000,4000")
    String rates;

    @Option(names = "--step-duration", description = "Measured time per step (default: ${DEFAULT-VALUE}).", defaultValue = "20s")
    String stepDuration;

    @Option(names = "--warmup", description = "Unmeasured load before each step, at its rate (default: ${DEFAULT-VALUE}).", defaultValue = "3s")
    String warmup;

    @Option(names = "--initial-warmup", description = "Unmeasured load at the lowest rate before the first sweep (default: ${DEFAULT-VALUE}).",
            defaultValue = "15s")
    String initialWarmup;

    @Option(names = "--settle", description = "Bound on waiting for a step's last deliveries; later ones are lost (default: ${DEFAULT-VALUE}).",
            defaultValue = "30s")
    String settle;

    @Mixin
    RunsOptions runOptions;

    @Option(names = "--guarantee", description = "fanout-streams processing guarantee: exactly_once_v2 or at_least_once (default: ${DEFAULT-VALUE}).",
            defaultValue = "exactly_once_v2")
    String guarantee;

    @Option(names = "--fanouts", description = "fanout-streams instances (default: ${DEFAULT-VALUE}).", defaultValue = "1")
    int fanouts;

    @Option(names = "--gateways", description = "Gateway nodes; users are split evenly (default: ${DEFAULT-VALUE}).", defaultValue = "2")
    int gateways;

    @Option(names = "--partitions", description = "Partitions of notify.events (so fanout-streams' tasks and the by-stream topic) "
            + "and of the stream log (default: ${DEFAULT-VALUE}, as notifyctl dev).", defaultValue = "6")
    int partitions;

    @Option(names = "--p99-bound", description = "A step counts as sustained only with p99 up to this (default: ${DEFAULT-VALUE}).",
            defaultValue = "1s")
    String p99Bound;

    @Option(names = "--baseline-records", description = "Records of the raw Kafka baseline run (default: ${DEFAULT-VALUE}).",
            defaultValue = "200000")
    long baselineRecords;

    @Option(names = "--ingest-lanes", description = "HTTP connections of the ingest load generator (default: ${DEFAULT-VALUE}).",
            defaultValue = "4")
    int lanes;

    @Option(names = "--deadline", description = "Bound of the whole run; steps not started by then are skipped (default: ${DEFAULT-VALUE}).",
            defaultValue = "60m")
    String deadline;

    @Option(names = "--set", paramLabel = "SERVICE:KEY=VALUE",
            description = "A setting for every instance of one service (fanout, gateway or ingest), e.g. "
                    + "fanout:notify.fanout.streams.producer.linger.ms=5; repeatable; applied over the stack's own.")
    List<String> set = new ArrayList<>();

    @Option(names = "--muted-share", description = "Share of the events, 0..1, of type bench.muted with a push fallback due in 7 days "
            + "(what --preferences mutes; default: ${DEFAULT-VALUE}).", defaultValue = "0")
    double mutedShare;

    @Option(names = "--preferences", description = "Every user's preferences turn push off for type bench.muted (written to "
            + "notify.preferences before the warm-up), so fanout-streams reads them for every event (docs/inbox.md, \"Preferences\").")
    boolean preferences;

    @Option(names = "--ack-modes", description = "Whether the clients ack the durable events they receive (cumulative, as the SDKs "
            + "do): off, on, or off,on for both, each the whole sweep, interleaved step by step (default: ${DEFAULT-VALUE}).",
            defaultValue = "off")
    String ackModes;

    @Option(names = "--ack-interval", description = "With acks on, at most one ack frame per client and stream this often, with the "
            + "highest seq received (default: ${DEFAULT-VALUE}, the gateways' receipt flush).", defaultValue = "100ms")
    String ackInterval;

    @Mixin
    FleetOptions fleetOptions;

    /** The gateways' resume timeout for the run (production default 10 s): shortens the post-connect watch. */
    static final Duration RESUME_TIMEOUT = Duration.ofSeconds(3);

    @Override
    public Integer call() throws Exception {
        List<Double> sweep;
        Duration step;
        Duration warm;
        Duration settleBound;
        Duration firstWarm;
        Duration total;
        double p99BoundMs;
        Map<String, Map<String, String>> overrides;
        List<String> modes;
        Duration ackEvery;
        try {
            sweep = PipelineMath.rates(rates);
            step = Settings.parseDurationArg("--step-duration", stepDuration);
            warm = Settings.parseDurationArg("--warmup", warmup);
            settleBound = Settings.parseDurationArg("--settle", settle);
            firstWarm = Settings.parseDurationArg("--initial-warmup", initialWarmup);
            total = Settings.parseDurationArg("--deadline", deadline);
            p99BoundMs = Settings.parseDurationArg("--p99-bound", p99Bound).toMillis();
            overrides = PipelineMath.serviceSettings(set);
            modes = PipelineMath.ackModes(ackModes);
            ackEvery = Settings.parseDurationArg("--ack-interval", ackInterval);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        if (users < 1 || runOptions.runs() < 1 || fanouts < 1 || gateways < 1 || partitions < 1 || lanes < 1 || baselineRecords < 1
                || step.isZero()
                || ackEvery.toMillis() < 1 || mutedShare < 0 || mutedShare > 1
                || !ClientFleet.valid(fleetOptions) || !(guarantee.equals("exactly_once_v2") || guarantee.equals("at_least_once"))) {
            System.err.println("--users, --runs, --fanouts, --gateways, --partitions, --ingest-lanes, --baseline-records >= 1; --step-duration > 0; "
                    + "--ack-interval >= 1ms; --muted-share 0..1; --guarantee exactly_once_v2|at_least_once; --clients-per-agent 1..19000; "
                    + "--source-addresses 1..250");
            return 2;
        }
        long deadlineNanos = System.nanoTime() + total.toNanos();
        Path work = Files.createTempDirectory("notify-bench-pipeline-");
        List<String> notes = new ArrayList<>();
        List<StepResult> results = new ArrayList<>();
        PipelineReport report;
        try (ProgressBar bar = ProgressBar.start().set(Double.NaN, "starting the stack")) {
            bar.println("bench pipeline: work dir " + work);
            Map<String, String> gatewaySettings = new LinkedHashMap<>();
            gatewaySettings.put("notify.gateway.resume-timeout", RESUME_TIMEOUT.toMillis() + "ms");
            gatewaySettings.putAll(overrides.get("gateway"));
            StackOptions so = StackOptions.of(work, fanouts, gateways).withIngest(true).withGuarantee(guarantee)
                    .withGatewayHeap(ClientFleet.gatewayHeap(fleetOptions))
                    .withGatewaySettings(gatewaySettings)
                    .withFanoutSettings(overrides.get("fanout"))
                    .withIngestSettings(overrides.get("ingest"))
                    .withPartitions(PlatformConfig.Partitions.DEV.withStreams(partitions));
            try (PlatformStack stack = PlatformStack.start(so, line -> bar.println("bench pipeline: " + line))) {
                bar.set(Double.NaN, String.format("baseline: raw Kafka, %,d records", baselineRecords));
                BaselineRun.Result baseline = BaselineRun.measure(stack.bootstrapServers(), baselineRecords, PipelineSteps.EVENT_BYTES);
                bar.println(String.format("bench pipeline: baseline %,.0f records/s consumed (%d B records)",
                        baseline.consumerRecordsPerSecond(), PipelineSteps.EVENT_BYTES));
                Duration lifetime = total.plusMinutes(10);
                List<Integer> ports = stack.gateways().stream().map(ServiceProcess::port).toList();
                try (ClientFleet fleet = ClientFleet.start(ports, work, users, fleetOptions, lifetime, "256m");
                     ChildAgent load = startLoad(stack, work, lifetime)) {
                    bar.set(Double.NaN, String.format("connecting %,d clients over %d gateways", users, gateways));
                    PipelineSteps steps = new PipelineSteps(fleet, users, load, stack.gateways(), stack.fanouts(),
                            stack.queryApi(stack.fanouts().get(0)),
                            new LostEvents.NodeTopics() {
                                @Override
                                public String topicOf(int user) {
                                    // gatewayOf counts from 0, node ids from gw-1
                                    return stack.topics().node(stack.nodeId(ClientFleet.gatewayOf(user, users, gateways) + 1)).name();
                                }

                                @Override
                                public Map<String, String> find(String topic, Set<String> ids) {
                                    return NodeTopicScan.find(stack.bootstrapServers(), topic, ids);
                                }
                            }, bar, warm, step, settleBound, ackEvery, processes(stack, load, fleet));
                    long reconnects = steps.connect(Math.max(200, users / 10.0), RESUME_TIMEOUT, 5);
                    bar.println(String.format("bench pipeline: %,d clients connected (%d agent JVMs), sources %s",
                            users, fleet.agents(), ClientFleet.sourceAddresses(fleetOptions)));
                    if (reconnects > 0) {
                        notes.add(reconnects + " clients were closed by a gateway (1002 resume_timeout) right after connecting "
                                + "and were connected again before the sweep");
                    }
                    if (preferences) {
                        BenchPreferences.write(stack.bootstrapServers(), stack.topics(), users, ClientFleet::user, new Preferences(
                                Map.of(PacedIngestLoad.MUTED_TYPE, new Channels(null, null, false)), Map.of(), null)); // push off
                        bar.println(String.format("bench pipeline: %,d users' preferences mute push for %s", users,
                                PacedIngestLoad.MUTED_TYPE));
                    }
                    if (!firstWarm.isZero()) {
                        steps.acks(modes.contains("on") ? "on" : modes.get(0)); // warms the receipts' path too
                        steps.warmUp(sweep.get(0), firstWarm);
                    }
                    sweep(steps, sweep, modes, deadlineNanos, notes, results, bar);
                }
                if (modes.size() > 1) {
                    notes.add("ack modes interleaved step by step, in alternating order (" + String.join(",", modes) + ", then "
                            + String.join(",", PipelineMath.modeOrder(modes, 1)) + ", ...); acks on: every client acks its "
                            + "position at most once per " + ackInterval + "; each acks-on step ends when its receipts settled");
                }
                notes.add("sustained = delivered >= " + PipelineMath.SUSTAINED_FRACTION + " x offered, no failed, lost or duplicated "
                        + "event (checked by id and recipient), p99 <= " + p99Bound + "; latency clock: one machine, System.currentTimeMillis at the generator and the clients");
                report = PipelineReport.of(Instant.now(), ResultFiles.machine(), settings(sweep), baseline, modes, sweep, results,
                        p99BoundMs, notes);
            }
        } catch (Exception e) {
            System.err.println("bench pipeline failed: " + e + "\n  logs kept in " + work);
            return 1;
        }
        report.print(System.out);
        System.err.println("wrote " + ResultFiles.write(ClientFleet.out(fleetOptions), "pipeline", report.at(), report, report.charts()));
        ResultFiles.deleteTree(work);
        return 0;
    }

    /** Every run of the sweep, each rate once per ack mode (modes interleaved step by step), until the deadline. */
    private void sweep(PipelineSteps steps, List<Double> sweep, List<String> modes, long deadlineNanos, List<String> notes,
                       List<StepResult> results, ProgressBar bar) throws IOException, InterruptedException {
        int totalSteps = runOptions.runs() * sweep.size() * modes.size();
        int done = 0;
        for (int r = 1; r <= runOptions.runs(); r++) {
            for (int i = 0; i < sweep.size(); i++) {
                for (String mode : PipelineMath.modeOrder(modes, (r - 1) * sweep.size() + i)) {
                    if (System.nanoTime() - deadlineNanos > 0) {
                        notes.add("--deadline " + deadline + " reached: steps from run " + r + ", rate " + sweep.get(i) + " skipped");
                        return;
                    }
                    steps.acks(mode);
                    StepResult s = steps.run(r, sweep.get(i), done / (double) totalSteps, 1.0 / totalSteps);
                    done++;
                    results.add(s);
                    ReceiptCounts rc = s.receipts();
                    bar.println(String.format("  run %d, %,.0f/s, acks %s: accepted %,.0f/s, delivered %,.0f/s, p50 %.1f p99 %.1f "
                                    + "max %.1f ms, failed %d, lost %d, duplicates %d, reconnected %d; acks %,d, receipts %,d "
                                    + "(coalesced %,d, dropped %,d, failed %,d), applied %,d; CPU per event: %s%s", r,
                            s.offeredRate(), mode, s.acceptedPerSecond(), s.deliveredPerSecond(), s.latencyMs().p50(), s.latencyMs().p99(),
                            s.latencyMs().max(), s.failed(), s.lost(), s.duplicates(), s.reconnects(), rc.acks(), rc.produced(),
                            rc.coalesced(), rc.dropped(), rc.failed(), rc.applied(), s.cpuPerEvent().describe() + "; " + s.commits().describe(),
                            s.lostSamples().isEmpty() ? "" : "; lost event numbers (data.n, user n % " + users + "): " + s.lostSamples()));
                }
            }
        }
    }

    /** The pids whose CPU each step reads: the stack's services by role, and the load generators apart. */
    private static CpuPerEvent.Processes processes(PlatformStack stack, ChildAgent load, ClientFleet fleet) {
        List<Long> generators = new ArrayList<>(List.of(load.pid()));
        generators.addAll(fleet.pids());
        // on a Redis Cluster there is no one Redis process: the column stays empty
        return new CpuPerEvent.Processes(List.of(stack.broker().pid()), stack.fanouts().stream().map(ServiceProcess::pid).toList(),
                List.of(stack.ingest().pid()), stack.gateways().stream().map(ServiceProcess::pid).toList(),
                stack.redis() == null ? List.of() : List.of(stack.redis().pid()), generators);
    }

    private ChildAgent startLoad(PlatformStack stack, Path work, Duration lifetime) throws Exception {
        ServiceProcess ingest = stack.ingest();
        ChildAgent load = ChildAgent.start(PacedIngestLoad.class.getName(), List.of("-Xmx256m", "-XX:+UseParallelGC"),
                List.of("127.0.0.1", Integer.toString(ingest.port()), DevKeys.PRODUCER_KEY,
                        String.join(",", PacedIngestLoad.sources(Math.min(lanes, 4))), Integer.toString(lanes),
                        Integer.toString(users), Long.toString(lifetime.toSeconds()), work.toString(),
                        Long.toString(mutedShare > 0 ? Math.max(1, Math.round(1 / mutedShare)) : 0)),
                work.resolve("ingest-load.log"));
        try {
            load.await("ready", Duration.ofSeconds(60));
            return load;
        } catch (Exception e) {
            load.close();
            throw e;
        }
    }

    private Map<String, Object> settings(List<Double> sweep) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("users", users);
        s.put("rates", sweep);
        s.put("stepDuration", stepDuration);
        s.put("warmup", warmup);
        s.put("initialWarmup", initialWarmup);
        s.put("gatewayResumeTimeout", RESUME_TIMEOUT.toString());
        s.put("settle", settle);
        s.put("runs", runOptions.runs());
        s.put("guarantee", guarantee);
        s.put("fanouts", fanouts);
        s.put("gateways", gateways);
        s.put("partitions", partitions);
        s.put("p99Bound", p99Bound);
        s.put("baselineRecords", baselineRecords);
        s.put("set", List.copyOf(set));
        s.put("eventBytes", PipelineSteps.EVENT_BYTES);
        s.put("ingestLoad", "own JVM (-Xmx256m), open loop, NDJSON batches every " + PacedIngestLoad.TICK_MS + " ms (<= "
                + PacedIngestLoad.MAX_BATCH + " events), " + lanes + " keep-alive HTTP lanes");
        s.put("clients", "load-agent JVMs (-Xmx256m), one WebSocket per user, users split evenly over the gateways");
        s.put("sourceAddresses", ClientFleet.sourceAddresses(fleetOptions));
        s.put("ackModes", PipelineMath.ackModes(ackModes));
        s.put("mutedShare", mutedShare);
        s.put("preferences", preferences);
        s.put("ackInterval", ackInterval);
        s.put("acks", "cumulative (the client's position in its user stream), at most one ack frame per client and stream per "
                + "--ack-interval, sent one interval after the first durable event since the last ack (as the SDKs' ack timer), "
                + "on the client's connection; one sweep per agent");
        return s;
    }
}
