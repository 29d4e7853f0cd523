package io.notify.cli.bench;

import io.notify.cli.bench.plot.BarChart;
import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.report.Stats;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What {@code bench baseline} prints and writes: every run and the median of each number over the
 * runs (each column on its own), plus the consumer's rate as a ratio of the producer's.
 */
public record BaselineReport(String scenario, Instant at, Map<String, Object> machine, Map<String, Object> settings,
                             List<BaselineRun.Result> runs, Medians medians) {

    /** Medians over the runs. */
    public record Medians(double producerRecordsPerSecond, double producerMegabytesPerSecond,
                          double consumerRecordsPerSecond, double consumerMegabytesPerSecond,
                          double consumerToProducer, double endToEndP50Ms, double endToEndP95Ms, double endToEndP99Ms,
                          double endToEndMaxMs, double ackP99Ms) {
    }

    public static BaselineReport of(Instant at, Map<String, Object> machine, Map<String, Object> settings,
                                    List<BaselineRun.Result> runs) {
        double producer = median(runs, BaselineRun.Result::producerRecordsPerSecond);
        double consumer = median(runs, BaselineRun.Result::consumerRecordsPerSecond);
        Medians m = new Medians(producer, median(runs, BaselineRun.Result::producerMegabytesPerSecond), consumer,
                median(runs, BaselineRun.Result::consumerMegabytesPerSecond), Stats.ratio(consumer, producer),
                median(runs, r -> r.endToEndMs().p50()), median(runs, r -> r.endToEndMs().p95()),
                median(runs, r -> r.endToEndMs().p99()), median(runs, r -> r.endToEndMs().max()),
                median(runs, r -> r.ackMs().p99()));
        return new BaselineReport("baseline", at, machine, settings, List.copyOf(runs), m);
    }

    static double median(List<BaselineRun.Result> runs, ToDoubleFunction<BaselineRun.Result> f) {
        return Stats.median(runs.stream().map(f::applyAsDouble).toList());
    }

    public void print(PrintStream out) {
        out.printf("%nbench baseline: raw KafkaProducer (acks=all, idempotent) -> KafkaConsumer, same process, %s records "
                + "of %s bytes%n", settings.get("records"), settings.get("recordBytes"));
        out.printf("%-7s %12s %9s %12s %9s %9s %9s %9s %9s %10s%n", "run", "produce/s", "MB/s", "consume/s", "MB/s",
                "e2e p50", "e2e p95", "e2e p99", "e2e max", "ack p99");
        for (int i = 0; i < runs.size(); i++) {
            BaselineRun.Result r = runs.get(i);
            out.printf("%-7s %,12.0f %9.1f %,12.0f %9.1f %9.2f %9.2f %9.2f %9.2f %10.2f%n", "run " + (i + 1),
                    r.producerRecordsPerSecond(), r.producerMegabytesPerSecond(), r.consumerRecordsPerSecond(),
                    r.consumerMegabytesPerSecond(), r.endToEndMs().p50(), r.endToEndMs().p95(), r.endToEndMs().p99(),
                    r.endToEndMs().max(), r.ackMs().p99());
        }
        out.printf("%-7s %,12.0f %9.1f %,12.0f %9.1f %9.2f %9.2f %9.2f %9.2f %10.2f%n", "median",
                medians.producerRecordsPerSecond(), medians.producerMegabytesPerSecond(), medians.consumerRecordsPerSecond(),
                medians.consumerMegabytesPerSecond(), medians.endToEndP50Ms(), medians.endToEndP95Ms(),
                medians.endToEndP99Ms(), medians.endToEndMaxMs(), medians.ackP99Ms());
        out.printf("latencies in ms; e2e = send() -> poll() returned it; consumer/producer rate %.3f; MB = 10^6 bytes of "
                + "record values%n", medians.consumerToProducer());
    }

    /** The PNG: records/s of producer and consumer per run and median; then the latency percentiles per run and median. */
    public Chart[] charts() {
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= runs.size(); i++) {
            names.add("run " + i);
        }
        names.add("median");
        BarChart rates = new BarChart("Raw Kafka baseline: records/s (acks=all, " + settings.get("recordBytes") + " B records)",
                "run", "records/s", names)
                .add("producer", column(BaselineRun.Result::producerRecordsPerSecond, medians.producerRecordsPerSecond()))
                .add("consumer", column(BaselineRun.Result::consumerRecordsPerSecond, medians.consumerRecordsPerSecond()));
        BarChart latency = new BarChart("Raw Kafka baseline: produce -> consume latency", "run", "ms", names)
                .add("p50", column(r -> r.endToEndMs().p50(), medians.endToEndP50Ms()))
                .add("p95", column(r -> r.endToEndMs().p95(), medians.endToEndP95Ms()))
                .add("p99", column(r -> r.endToEndMs().p99(), medians.endToEndP99Ms()))
                .add("max", column(r -> r.endToEndMs().max(), medians.endToEndMaxMs()));
        return new Chart[] {rates, latency};
    }

    private double[] column(ToDoubleFunction<BaselineRun.Result> f, double median) {
        double[] v = new double[runs.size() + 1];
        for (int i = 0; i < runs.size(); i++) {
            v[i] = f.applyAsDouble(runs.get(i));
        }
        v[runs.size()] = median;
        return v;
    }
}
