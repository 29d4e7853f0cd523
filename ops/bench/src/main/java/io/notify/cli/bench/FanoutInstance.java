package io.notify.cli.bench;

import io.notify.common.config.Settings;
import io.notify.devstack.FreePorts;
import io.notify.devstack.JavaProcess;
import io.notify.fanout.FanoutConfig;
import io.notify.fanout.FanoutMain;
import io.notify.platform.DevKeys;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The app under test: one fanout-streams instance ({@link FanoutMain}) in a child JVM with
 * {@code -Xmx512m}, a fresh application id (the run's topic prefix) and a fresh state dir, its
 * query API on a port chosen here, on loopback, accepting its group's service token, and its
 * management listener on another. Read from outside only: {@code /readyz}, the query API with the
 * token ({@link QueryLoad}), and {@code /metrics} on the management port. {@link #close} stops it
 * (SIGTERM, SIGKILL after 30 s).
 */
final class FanoutInstance implements AutoCloseable {

    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(5);

    private final JavaProcess process;
    private final int port;
    private final int managementPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(HTTP_TIMEOUT).build();

    private FanoutInstance(JavaProcess process, int port, int managementPort) {
        this.process = process;
        this.port = port;
        this.managementPort = managementPort;
    }

    /**
     * Starts the instance. Settings not given here keep fanout-streams' defaults (1 stream thread,
     * 10 MiB store cache, route timeout 250 ms, standby replicas 0; a null commit interval is the
     * app's default for the guarantee); {@code extra} ({@code key=value}) come last and win.
     */
    static FanoutInstance start(String bootstrap, String redisUri, String prefix, String guarantee,
                                Duration commitInterval, List<String> extra, String queryToken, Path dir) throws IOException {
        int[] ports = FreePorts.pick(2); // the query API, the management listener
        List<String> settings = new ArrayList<>(List.of(
                "notify.kafka.bootstrap-servers=" + bootstrap,
                "notify.topic-prefix=" + prefix,
                "notify.redis.uri=" + redisUri,
                "notify.registry.key-prefix=" + prefix, // where BenchConnections registered the users
                "notify.fanout.processing-guarantee=" + guarantee,
                "notify.fanout.state-dir=" + dir.resolve("state"),
                "notify.fanout.query.host=127.0.0.1",
                "notify.fanout.query.port=" + ports[0],
                "notify.fanout.management-port=" + ports[1]));
        if (commitInterval != null) {
            settings.add("notify.fanout.commit-interval=" + commitInterval.toMillis() + "ms");
        }
        settings.addAll(extra);
        // the token is a secret: services refuse one on the command line, so it goes in the environment
        JavaProcess p = new JavaProcess(FanoutMain.class.getName(), settings, List.of("-Xmx512m"), dir.resolve("fanout.log"),
                Map.of(Settings.envName(FanoutConfig.QUERY_TOKENS), queryToken));
        return new FanoutInstance(p.start(), ports[0], ports[1]);
    }

    int port() {
        return port;
    }

    Path logFile() {
        return process.logFile();
    }

    /** The child JVM's process id (for {@code /proc}: CPU time, RSS). */
    long pid() {
        return process.pid();
    }

    /** Waits until {@code /readyz} answers 200 (Kafka Streams RUNNING); fails if the child dies first. */
    void awaitReady(Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() - deadline < 0) {
            requireAlive();
            try {
                if (get(port, "/readyz").statusCode() == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // the JVM is still starting; try again
            }
            TimeUnit.MILLISECONDS.sleep(100); // poll interval of a bounded wait
        }
        throw new IOException("fanout-streams not ready within " + bound + "; see " + logFile());
    }

    /** The current {@code /metrics} text. */
    PrometheusText metrics() throws IOException, InterruptedException {
        requireAlive();
        HttpResponse<String> r = get(managementPort, "/metrics");
        if (r.statusCode() != 200) {
            throw new IOException("GET /metrics answered " + r.statusCode() + "; see " + logFile());
        }
        return new PrometheusText(r.body());
    }

    private HttpResponse<String> get(int toPort, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + toPort + path)).timeout(HTTP_TIMEOUT)
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private void requireAlive() throws IOException {
        if (!process.isAlive()) {
            throw new IOException("fanout-streams exited; see " + logFile());
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.stop(Duration.ofSeconds(30));
    }

    /**
     * Instances of one application id (the run's prefix), each in its own JVM with its own state dir
     * and query port; Kafka Streams spreads the tasks over them. Closed together.
     */
    static final class Group implements AutoCloseable {

        private final List<FanoutInstance> instances;
        private final String queryToken;

        private Group(List<FanoutInstance> instances, String queryToken) {
            this.instances = instances;
            this.queryToken = queryToken;
        }

        static Group start(int count, String bootstrap, String redisUri, String prefix, String guarantee,
                           Duration commitInterval, Path dir) throws IOException, InterruptedException {
            return start(count, bootstrap, redisUri, prefix, guarantee, commitInterval, List.of(), dir);
        }

        /** As {@link #start(int, String, String, String, String, Duration, Path)}, every instance also given {@code extra} settings. */
        static Group start(int count, String bootstrap, String redisUri, String prefix, String guarantee,
                           Duration commitInterval, List<String> extra, Path dir) throws IOException, InterruptedException {
            List<FanoutInstance> started = new ArrayList<>();
            String queryToken = DevKeys.random().queryToken();
            try {
                for (int i = 1; i <= count; i++) {
                    started.add(FanoutInstance.start(bootstrap, redisUri, prefix, guarantee, commitInterval, extra, queryToken,
                            count == 1 ? dir : dir.resolve("instance-" + i)));
                }
            } catch (IOException | RuntimeException e) {
                new Group(started, queryToken).close();
                throw e;
            }
            return new Group(started, queryToken);
        }

        /** The service token every instance's query API accepts (random per group). */
        String queryToken() {
            return queryToken;
        }

        FanoutInstance first() {
            return instances.get(0);
        }

        /** Waits until every instance is ready, each within {@code bound}. */
        void awaitReady(Duration bound) throws IOException, InterruptedException {
            for (FanoutInstance i : instances) {
                i.awaitReady(bound);
            }
        }

        List<PrometheusText> metrics() throws IOException, InterruptedException {
            List<PrometheusText> all = new ArrayList<>();
            for (FanoutInstance i : instances) {
                all.add(i.metrics());
            }
            return all;
        }

        List<Path> logFiles() {
            return instances.stream().map(FanoutInstance::logFile).toList();
        }

        @Override
        public void close() throws InterruptedException {
            for (FanoutInstance i : instances) {
                i.close();
            }
        }
    }
}
