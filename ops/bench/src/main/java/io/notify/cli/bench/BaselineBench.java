package io.notify.cli.bench;

import io.notify.cli.bench.report.RunsOptions;
import io.notify.cli.bench.report.ResultOptions;
import io.notify.cli.bench.report.ProgressBar;
import io.notify.cli.bench.report.ResultFiles;
import io.notify.common.config.Settings;
import io.notify.devstack.KafkaBrokerProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code notifyctl bench baseline}: the denominator every other scenario is compared with: raw
 * Kafka producer → consumer on the same box ({@link BaselineRun}), a warm-up then N runs, medians.
 * Starts a broker in a child JVM unless {@code --bootstrap} names one.
 */
@Command(name = "baseline", mixinStandardHelpOptions = true,
        description = "Raw Kafka producer (acks=all, idempotent) -> consumer on the same box: the denominator.")
public final class BaselineBench implements Callable<Integer> {

    @Option(names = "--records", description = "Records per run (default: ${DEFAULT-VALUE}).", defaultValue = "500000")
    long records;

    @Option(names = "--record-size", description = "Record value bytes, a serialized Notify event (default: ${DEFAULT-VALUE}, as bench ingest).",
            defaultValue = "1024")
    int recordSize;

    @Mixin
    RunsOptions runOptions;

    @Option(names = "--warmup-records", description = "Records of an unreported warm-up run, 0 for none (default: ${DEFAULT-VALUE}).",
            defaultValue = "50000")
    long warmupRecords;

    @Option(names = "--partitions", description = "Partitions of each run's topic (default: ${DEFAULT-VALUE}).", defaultValue = "6")
    int partitions;

    @Option(names = "--compression", description = "Producer compression, as ingest's producer (default: ${DEFAULT-VALUE}).",
            defaultValue = "lz4")
    String compression;

    @Option(names = "--bootstrap", description = "An external broker; default: start one in a child JVM.")
    String bootstrap;

    @Option(names = "--deadline", description = "Bound of each run (default: ${DEFAULT-VALUE}).", defaultValue = "5m")
    String deadline;

    @Mixin
    ResultOptions resultOptions;

    @Override
    public Integer call() throws Exception {
        if (records < 1 || runOptions.runs() < 1 || recordSize < 64 || partitions < 1 || warmupRecords < 0) {
            System.err.println("--records, --runs, --partitions >= 1; --record-size >= 64; --warmup-records >= 0");
            return 2;
        }
        Duration bound = Settings.parseDurationArg("--deadline", deadline);
        List<BaselineRun.Result> results = new ArrayList<>();
        io.notify.platform.PlatformStack.quietBrokerStartup();
        try (ProgressBar bar = ProgressBar.start().set(Double.NaN, bootstrap == null ? "broker starting" : "connecting");
             KafkaBrokerProcess broker = bootstrap == null ? new KafkaBrokerProcess().start() : null) {
            String servers = broker == null ? bootstrap : broker.bootstrapServers();
            bar.println("bench baseline: broker " + servers + (broker == null ? " (external)" : " (child JVM)"));
            if (warmupRecords > 0) {
                run(bar, servers, warmupRecords, bound, 0, "warm-up");
            }
            for (int r = 1; r <= runOptions.runs(); r++) {
                BaselineRun.Result res = run(bar, servers, records, bound, r, "run " + r + "/" + runOptions.runs());
                bar.println(String.format("  run %d/%d: produced %,.0f rec/s (%.1f MB/s), consumed %,.0f rec/s, e2e p50 %.2f ms"
                                + " p99 %.2f ms", r, runOptions.runs(), res.producerRecordsPerSecond(), res.producerMegabytesPerSecond(),
                        res.consumerRecordsPerSecond(), res.endToEndMs().p50(), res.endToEndMs().p99()));
                results.add(res);
            }
        } catch (Exception e) {
            System.err.println("bench baseline failed: " + e.getMessage());
            return 1;
        }
        BaselineReport report = BaselineReport.of(Instant.now(), ResultFiles.machine(), settings(), results);
        report.print(System.out);
        System.err.println("wrote " + ResultFiles.write(resultOptions.out(), "baseline", report.at(), report, report.charts()));
        return 0;
    }

    private BaselineRun.Result run(ProgressBar bar, String servers, long n, Duration bound, int index, String label)
            throws Exception {
        BaselineRun run = new BaselineRun(servers, new BaselineRun.Options(n, recordSize, partitions, compression, bound,
                "bench-baseline-"));
        // the warm-up is step 0 of runs + 1 when there is one
        double steps = runOptions.runs() + (warmupRecords > 0 ? 1 : 0);
        double before = (warmupRecords > 0 ? index : index - 1) / steps;
        bar.track(() -> before + (run.produced() + run.consumed()) / (2.0 * n) / steps,
                () -> String.format("%s: %,d produced, %,d consumed of %,d", label, run.produced(), run.consumed(), n));
        return run.run();
    }

    private Map<String, Object> settings() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("records", records);
        s.put("recordBytes", recordSize);
        s.put("runs", runOptions.runs());
        s.put("warmupRecords", warmupRecords);
        s.put("partitions", partitions);
        s.put("broker", bootstrap == null ? "child JVM (devstack KafkaBrokerProcess)" : bootstrap);
        s.put("producer", "acks=all, idempotent, " + compression + ", linger 2 ms, batch 128 KiB, <= 10,000 in flight");
        s.put("consumer", "same JVM, assigned all partitions from offset 0, no group, max.poll.records 2000");
        s.put("latency", "send() to poll() returning the record; send time (System.nanoTime) in a record header");
        return s;
    }
}
