package io.notify.cli.replay;

import com.fasterxml.jackson.databind.SerializationFeature;
import io.notify.cli.bench.report.RunsOptions;
import io.notify.devstack.BrokerOptions;
import io.notify.devstack.KafkaBrokerProcess;
import io.notify.protocol.NotifyJson;
import io.notify.schemas.topic.TopicCatalog;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * Replay throughput against a raw KafkaConsumer in the same run: writes N small envelopes to a
 * fresh notify.events (in a broker child process unless {@code --bootstrap-servers} is given),
 * then alternates full reads: the raw consumer (same client settings, assign + seek, records
 * counted and dropped) and {@code notifyctl replay events --out /dev/null} (JSONL) run in-process
 * exactly as the CLI runs it. Each timing covers the whole command: client start, metadata, offset
 * lookup, read, format, write. Reports medians and the replay/raw ratio (goal ≥ 0.7).
 *
 * <p>A separate main rather than {@code notifyctl bench replay}, because the bench package is
 * owned elsewhere. Run: {@code java -cp "$(cat ops/bench/target/classpath.txt):ops/bench/target/notify-bench-0.1.0-SNAPSHOT.jar"
 * io.notify.cli.replay.ReplayBench}.
 */
@Command(name = "replay-bench", mixinStandardHelpOptions = true,
        description = "records/s of notifyctl replay (JSONL to /dev/null) vs a raw KafkaConsumer on the same records.")
public final class ReplayBench implements Callable<Integer> {

    @Option(names = "--records", defaultValue = "1000000", description = "Records to write and read (default: ${DEFAULT-VALUE}).")
    int records;

    @Option(names = "--partitions", defaultValue = "3", description = "Partitions of the topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Mixin
    RunsOptions runOptions;

    @Option(names = "--bootstrap-servers", description = "Use this broker instead of starting one.")
    String bootstrap;

    @Option(names = "--reuse-prefix", description = "Read the notify.events of this existing prefix instead of writing a new one.")
    String reusePrefix;

    @Option(names = "--results", defaultValue = "results", description = "Folder for the JSON report (default: ${DEFAULT-VALUE}).")
    Path results;

    /** One timed read. */
    public record Run(String mode, long records, double seconds, double recordsPerSecond) {
    }

    /** The JSON report. */
    public record Report(String scenario, Instant at, Map<String, Object> settings, List<Run> runs,
                         Map<String, Double> medianRecordsPerSecond, double ratio) {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ReplayBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (bootstrap != null) {
            return measure(bootstrap);
        }
        System.err.println("replay bench: starting a broker (child process)");
        try (KafkaBrokerProcess broker = new KafkaBrokerProcess(BrokerOptions.defaults(),
                List.of("-Xms256m", "-Xmx1g", "-XX:+UseParallelGC", "-Djava.awt.headless=true"),
                System.getProperty("java.class.path")).start()) {
            return measure(broker.bootstrapServers());
        }
    }

    private int measure(String servers) throws Exception {
        String prefix = reusePrefix != null ? reusePrefix : "rbench-" + Long.toString(System.currentTimeMillis(), 36) + ".";
        String topic = TopicCatalog.of(prefix).events().name();
        long bytes = 0;
        if (reusePrefix == null) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
                admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            bytes = fill(servers, topic);
        }
        System.err.printf("replay bench: %,d records (%,d value bytes, %.0f B avg) in %s%n", records, bytes,
                (double) bytes / records, topic);
        List<Run> all = new ArrayList<>();
        for (int r = 0; r <= runOptions.runs(); r++) {
            for (String mode : List.of("raw-consumer", "replay-jsonl")) {
                Run run = mode.equals("raw-consumer") ? raw(servers, topic) : replay(servers, prefix);
                System.err.printf("  %s %-14s %,10.0f records/s  (%.2f s)%n", r == 0 ? "warm-up" : "run " + r, mode,
                        run.recordsPerSecond(), run.seconds());
                if (r > 0) {
                    all.add(run);
                }
            }
        }
        Map<String, Double> medians = new LinkedHashMap<>();
        for (String mode : List.of("raw-consumer", "replay-jsonl")) {
            medians.put(mode, median(all.stream().filter(x -> x.mode().equals(mode)).map(Run::recordsPerSecond).toList()));
        }
        double ratio = Math.round(medians.get("replay-jsonl") / medians.get("raw-consumer") * 1000) / 1000.0;
        System.out.printf("%n%-14s %16s%n", "mode", "records/s (med)");
        medians.forEach((k, v) -> System.out.printf("%-14s %,16.0f%n", k, v));
        System.out.printf("replay/raw     %16.3f  (goal >= 0.7)%n", ratio);
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("records", records);
        settings.put("partitions", partitions);
        settings.put("runs", runOptions.runs());
        settings.put("avgValueBytes", (double) bytes / records);
        settings.put("cores", Runtime.getRuntime().availableProcessors());
        settings.put("java", System.getProperty("java.version"));
        Report report = new Report("replay", Instant.now(), settings, all, medians, ratio);
        Files.createDirectories(results);
        Path file = results.resolve("bench-replay-" + report.at().toString().replace(':', '-') + ".json");
        NotifyJson.mapper().copy().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), report);
        System.err.println("wrote " + file);
        return 0;
    }

    /** Writes the records: small valid envelopes, round-robin over partitions, acks=all. */
    private long fill(String servers, String topic) throws Exception {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        long bytes = 0;
        try (var producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < records; i++) {
                String id = "b-" + i;
                byte[] value = ("{\"id\":\"" + id + "\",\"type\":\"bench.tick\",\"to\":{\"users\":[\"" + (i % 1000)
                        + "\"]},\"data\":{\"i\":" + i + "}}").getBytes(StandardCharsets.UTF_8);
                bytes += value.length;
                producer.send(new ProducerRecord<>(topic, i % partitions, id.getBytes(StandardCharsets.UTF_8), value));
            }
            producer.flush();
        }
        return bytes;
    }

    private Run raw(String servers, String topic) {
        long start = System.nanoTime();
        long n = 0;
        long sink = 0;
        try (Consumer<byte[], byte[]> c = KafkaClients.consumer(servers, Map.of())) {
            List<TopicPartition> parts = KafkaClients.partitions(c, topic, Duration.ofSeconds(30));
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            c.assign(parts);
            c.seekToBeginning(parts);
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
                    n++;
                    sink += r.value().length; // touch every record, as any reader would
                }
            }
        }
        if (sink == 0) {
            throw new IllegalStateException("read nothing");
        }
        return run("raw-consumer", n, start);
    }

    private Run replay(String servers, String prefix) {
        StringWriter err = new StringWriter();
        CommandLine cmd = new CommandLine(new ReplayCommand()); // `notifyctl replay` itself, without the root command (no package cycle)
        cmd.setErr(new PrintWriter(err, true));
        long start = System.nanoTime();
        int code = cmd.execute("events", "--bootstrap-servers", servers, "--topic-prefix", prefix,
                "--out", "/dev/null", "--no-progress");
        if (code != 0) {
            throw new IllegalStateException("replay failed (" + code + "): " + err);
        }
        String summary = err.toString();
        long n = Long.parseLong(summary.substring(summary.indexOf("replay: ") + 8, summary.indexOf(" records")));
        return run("replay-jsonl", n, start);
    }

    private static Run run(String mode, long n, long startNanos) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        return new Run(mode, n, seconds, n / seconds);
    }

    static double median(List<Double> values) {
        List<Double> v = values.stream().sorted().toList();
        int n = v.size();
        return n == 0 ? 0 : n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }
}
