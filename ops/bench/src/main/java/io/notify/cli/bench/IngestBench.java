package io.notify.cli.bench;

import io.notify.cli.bench.report.RunsOptions;
import io.notify.cli.bench.report.ResultOptions;
import io.notify.cli.bench.plot.BarChart;
import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.report.ProgressBar;
import io.notify.cli.bench.report.ResultFiles;
import io.notify.common.config.Settings;
import io.notify.devstack.KafkaBrokerProcess;
import io.notify.ingest.IngestConfig;
import io.notify.ingest.IngestServer;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code notifyctl bench ingest}: events/s accepted by ingest (202 = acks=all write) and accept
 * latency, against a raw KafkaProducer writing the same bytes to the same broker in the same run.
 * Runs are interleaved (raw, single, batch, raw, ...) so drift on a noisy machine hits all three;
 * the report gives medians of the runs and the ratios of medians.
 */
@Command(name = "ingest", mixinStandardHelpOptions = true,
        description = "Ingest throughput and accept latency vs raw KafkaProducer on the same broker.")
public final class IngestBench implements Callable<Integer> {

    @Option(names = "--duration", description = "Measured time per run (default: ${DEFAULT-VALUE}).", defaultValue = "10s")
    String duration;

    @Option(names = "--warmup", description = "Unmeasured warm-up per mode (default: ${DEFAULT-VALUE}).", defaultValue = "3s")
    String warmup;

    @Mixin
    RunsOptions runOptions;

    @Option(names = "--size", description = "Serialized event size in bytes (default: ${DEFAULT-VALUE}).", defaultValue = "1024")
    int size;

    @Option(names = "--concurrency", description = "Concurrent HTTP requests (default: ${DEFAULT-VALUE}).", defaultValue = "64")
    int concurrency;

    @Option(names = "--batch", description = "Events per NDJSON request in batch mode (default: ${DEFAULT-VALUE}).", defaultValue = "100")
    int batch;

    @Option(names = "--partitions", description = "Partitions of the benchmark topics (default: ${DEFAULT-VALUE}).", defaultValue = "6")
    int partitions;

    @Mixin
    ResultOptions resultOptions;

    /** What the JSON results file holds. */
    public record Report(String scenario, Instant at, Map<String, Object> machine, Map<String, Object> settings,
                         List<LoadResult> runs, Map<String, Double> medianEventsPerSecond, Map<String, Double> ratioToRaw) {
    }

    private Duration planned = Duration.ZERO;
    private Duration done = Duration.ZERO;

    @Override
    public Integer call() throws Exception {
        Duration measure = Settings.parseDurationArg("--duration", duration);
        Duration warm = Settings.parseDurationArg("--warmup", warmup);
        String apiKey = "bench-producer-key-0123456789";
        String prefix = "bench-" + Long.toString(System.currentTimeMillis(), 36) + "-";
        List<LoadResult> results = new ArrayList<>();
        planned = warm.multipliedBy(3).plus(measure.multipliedBy(3L * runOptions.runs()));
        try (ProgressBar bar = ProgressBar.start().set(0, "broker starting");
             KafkaBrokerProcess broker = new KafkaBrokerProcess().start()) {
            bar.println(String.format("bench ingest: broker started (child process); %d runs x %s per mode", runOptions.runs(), measure));
            String rawTopic = prefix + "raw";
            String eventsTopic = TopicCatalog.of(prefix).events().name();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(rawTopic, partitions, (short) 1),
                        new NewTopic(eventsTopic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            try (IngestServer ingest = new IngestServer(IngestConfig.load(Settings.of(Map.of(
                    "notify.ingest.port", "0",
                    "notify.ingest.host", "127.0.0.1",
                    "notify.kafka.bootstrap-servers", broker.bootstrapServers(),
                    "notify.topic-prefix", prefix,
                    "notify.ingest.api-keys", "bench:" + apiKey,
                    "notify.ingest.max-batch-items", Integer.toString(Math.max(batch, 1))))))) {
                ingest.start();
                String endpoint = "127.0.0.1:" + ingest.port();
                String bootstrap = broker.bootstrapServers();
                String bytes = Integer.toString(size);
                String conc = Integer.toString(concurrency);
                // One mode = one load-generator process; runs interleave modes so drift hits all alike.
                List<String[]> modes = List.of(
                        new String[] {"raw", bootstrap, rawTopic, bytes, null, "10000"},
                        new String[] {"http", endpoint, apiKey, bytes, null, conc, "1"},
                        new String[] {"http", endpoint, apiKey, bytes, null, conc, Integer.toString(batch)});
                for (String[] mode : modes) {
                    load(bar, warm, "warm-up " + label(mode), mode);
                }
                for (int r = 1; r <= runOptions.runs(); r++) {
                    for (String[] mode : modes) {
                        LoadResult result = load(bar, measure, "run " + r + "/" + runOptions.runs() + " " + label(mode), mode);
                        bar.println(progress(r, result));
                        results.add(result);
                    }
                }
            }
        }
        Report report = report(results);
        print(report);
        System.err.println("wrote " + ResultFiles.write(resultOptions.out(), "ingest", report.at(), report, chart(report)));
        return 0;
    }

    /** One load-generator process for {@code d}, with the bar moving over its share of the planned time. */
    private LoadResult load(ProgressBar bar, Duration d, String status, String[] mode) throws Exception {
        double total = Math.max(1, planned.toMillis());
        bar.track(ProgressBar.timed(done.toMillis() / total, done.plus(d).toMillis() / total, d), () -> status);
        LoadResult r = LoadGenerator.run(d, withDuration(mode, d));
        done = done.plus(d);
        return r;
    }

    /** The PNG: events/s of every run and the median per mode, raw producer first (log scale: they differ ~100x). */
    static Chart chart(Report report) {
        List<String> modes = List.copyOf(report.medianEventsPerSecond().keySet());
        BarChart chart = new BarChart("Ingest events/s per mode vs raw KafkaProducer (same broker, same run)", "mode",
                "events/s", modes).logY();
        int runs = (int) report.runs().stream().filter(r -> r.name().equals(modes.get(0))).count();
        for (int run = 0; run < runs; run++) {
            int i = run;
            chart.add("run " + (run + 1), modes.stream().mapToDouble(m -> report.runs().stream()
                    .filter(r -> r.name().equals(m)).skip(i).findFirst().map(LoadResult::eventsPerSecond)
                    .orElse(Double.NaN)).toArray());
        }
        return chart.add("median", modes.stream().mapToDouble(report.medianEventsPerSecond()::get).toArray());
    }

    /** The name LoadGenerator gives a mode's result. */
    private static String label(String[] mode) {
        return mode[0].equals("raw") ? "raw-producer" : "1".equals(mode[6]) ? "ingest-single" : "ingest-batch" + mode[6];
    }

    private static String[] withDuration(String[] mode, Duration d) {
        String[] args = mode.clone();
        args[4] = Long.toString(d.toMillis());
        return args;
    }

    private String progress(int run, LoadResult r) {
        return String.format("  run %d/%d %-16s %,10.0f events/s  p99 %7.1f ms  failures %d",
                run, runOptions.runs(), r.name(), r.eventsPerSecond(), r.latency().p99(), r.failures());
    }

    private Report report(List<LoadResult> results) {
        Map<String, Double> medians = new LinkedHashMap<>();
        for (LoadResult r : results) {
            medians.putIfAbsent(r.name(), median(results, r.name()));
        }
        double raw = medians.getOrDefault("raw-producer", 0.0);
        Map<String, Double> ratios = new LinkedHashMap<>();
        medians.forEach((k, v) -> ratios.put(k, raw == 0 ? 0 : Math.round(v / raw * 1000) / 1000.0));
        Map<String, Object> machine = ResultFiles.machine();
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("duration", duration);
        settings.put("runs", runOptions.runs());
        settings.put("eventBytes", size);
        settings.put("concurrency", concurrency);
        settings.put("batch", batch);
        settings.put("partitions", partitions);
        return new Report("ingest", Instant.now(), machine, settings, results, medians, ratios);
    }

    static double median(List<LoadResult> results, String name) {
        List<Double> values = results.stream().filter(r -> r.name().equals(name))
                .map(LoadResult::eventsPerSecond).sorted(Comparator.naturalOrder()).toList();
        int n = values.size();
        return n == 0 ? 0 : n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    private static void print(Report report) {
        System.out.printf("%n%-18s %14s %10s %10s %10s %10s %10s%n", "mode", "events/s (med)", "x raw",
                "p50 ms", "p95 ms", "p99 ms", "max ms");
        for (var e : report.medianEventsPerSecond().entrySet()) {
            LoadResult mid = report.runs().stream().filter(r -> r.name().equals(e.getKey()))
                    .min(Comparator.comparingDouble(r -> Math.abs(r.eventsPerSecond() - e.getValue()))).orElseThrow();
            System.out.printf("%-18s %,14.0f %10.3f %10.2f %10.2f %10.2f %10.2f%n", e.getKey(), e.getValue(),
                    report.ratioToRaw().get(e.getKey()), mid.latency().p50(), mid.latency().p95(),
                    mid.latency().p99(), mid.latency().max());
        }
    }
}
