package io.notify.cli.bench;

import io.notify.protocol.NotifyJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The load generator as its own process (own heap, own GC), so a benchmark measures the system
 * under test rather than the client sharing its JVM. The parent starts it with {@link #run} and
 * reads one JSON {@link LoadResult} from its stdout. The child is bounded in time: it stops by
 * itself after the duration, and the parent kills it if it overstays by a margin.
 *
 * <pre>
 *   raw  &lt;bootstrap&gt; &lt;topic&gt; &lt;eventBytes&gt; &lt;durationMs&gt; &lt;maxInFlight&gt;
 *   http &lt;host:port&gt; &lt;apiKey&gt; &lt;eventBytes&gt; &lt;durationMs&gt; &lt;concurrency&gt; &lt;batch&gt;
 * </pre>
 */
public final class LoadGenerator {

    private LoadGenerator() {
    }

    public static void main(String[] args) throws Exception {
        LoadResult result = switch (args[0]) {
            case "raw" -> RawProducerLoad.run("raw-producer", args[1], args[2], new BenchEvents(Integer.parseInt(args[3])),
                    Duration.ofMillis(Long.parseLong(args[4])), Integer.parseInt(args[5]));
            case "http" -> {
                String[] hp = args[1].split(":");
                int batch = Integer.parseInt(args[6]);
                yield HttpIngestLoad.run(batch == 1 ? "ingest-single" : "ingest-batch" + batch,
                        new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), args[2],
                        new BenchEvents(Integer.parseInt(args[3])), Duration.ofMillis(Long.parseLong(args[4])),
                        Integer.parseInt(args[5]), batch);
            }
            default -> throw new IllegalArgumentException("mode must be raw or http, got " + args[0]);
        };
        System.out.println(NotifyJson.mapper().writeValueAsString(result));
        System.exit(0);
    }

    /** Runs one load-generator process and returns its result. */
    static LoadResult run(Duration duration, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:+UseParallelGC",
                "-cp", System.getProperty("java.class.path"), LoadGenerator.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line;
        String last = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            while ((line = out.readLine()) != null) {
                last = line;
            }
        }
        if (!p.waitFor(duration.toMillis() + 60_000, TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new IOException("load generator did not stop within its duration + 60 s");
        }
        if (p.exitValue() != 0 || last == null) {
            throw new IOException("load generator failed with exit code " + p.exitValue());
        }
        return NotifyJson.mapper().readValue(last, LoadResult.class);
    }
}
