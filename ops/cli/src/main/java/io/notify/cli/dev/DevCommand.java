package io.notify.cli.dev;

import io.notify.platform.DevKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code notifyctl dev}: the whole platform locally, on embedded defaults, until Ctrl-C (which
 * drains the gateways and stops everything cleanly). Prints the URLs, a ready-made client token
 * (allowed the demo rooms, {@link LocalPlatform#DEMO_ROOMS}) and a curl line that publishes an event.
 */
@Command(name = "dev", mixinStandardHelpOptions = true,
        description = "Run Kafka, Redis, ingest, fanout-streams and gateway nodes locally (Ctrl-C stops).")
public final class DevCommand implements Callable<Integer> {

    @Option(names = "--data-dir", defaultValue = ".notify-dev", description = "Data directory (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--kafka-port", defaultValue = "9092", description = "Kafka port; controller uses the next one (default: ${DEFAULT-VALUE}).")
    int kafkaPort;

    @Option(names = "--redis-port", defaultValue = "6379", description = "Redis port (default: ${DEFAULT-VALUE}).")
    int redisPort;

    @Option(names = "--ingest-port", defaultValue = "8080", description = "Ingest HTTP port (default: ${DEFAULT-VALUE}).")
    int ingestPort;

    @Option(names = "--query-port", defaultValue = "8090", description = "fanout-streams query API port (default: ${DEFAULT-VALUE}).")
    int queryPort;

    @Option(names = "--gateway-port", defaultValue = "8081", description = "Port of the first gateway; node n uses port + n - 1 (default: ${DEFAULT-VALUE}).")
    int gatewayPort;

    @Option(names = "--nodes", defaultValue = "2", description = "Gateway nodes (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--drain-window", defaultValue = "2s", description = "Gateway drain window on Ctrl-C (default: ${DEFAULT-VALUE}).")
    String drainWindow;

    @Override
    public Integer call() throws Exception {
        if (nodes < 1 || nodes > 16) {
            System.err.println("notifyctl dev: --nodes must be 1..16");
            return 2;
        }
        List<Integer> ports = java.util.stream.IntStream.range(0, nodes).map(i -> gatewayPort + i).boxed().toList();
        long start = System.nanoTime();
        System.err.println("notifyctl dev: starting Kafka, Redis, ingest, fanout-streams, the push sender and " + nodes + " gateway node(s) ...");
        LocalPlatform platform = LocalPlatform.start(new LocalPlatform.Options(dataDir.toAbsolutePath(), kafkaPort, redisPort,
                ingestPort, queryPort, ports, drainWindow));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.err.println("\nnotifyctl dev: draining gateways and stopping ...");
            platform.close();
            stopped.countDown();
        }, "notifyctl-dev-stop"));
        String token = platform.keys().token("42", Duration.ofHours(12), List.of(LocalPlatform.DEMO_ROOMS));
        System.out.printf("""

                Notify is running (started in %.1f s; data in %s)

                  Kafka            %s
                  Redis            %s
                  ingest           http://localhost:%d   (producer key: %s)
                  query API        http://127.0.0.1:%d   (services only: Authorization: Bearer $(ops/notifyctl token --service))
                %s
                Management (/metrics, /healthz, /readyz; not for clients):
                %s
                The keys and tokens printed here are dev-only (their secret is in the data dir).

                A client token for user 42 (12 h; it may join the rooms %s):
                  %s

                The demo page (live feed, connection state, publish form; rooms with members online):
                  %s

                Push (docs/push.md): Web Push with this VAPID public key (GET /v1/push/config answers it;
                http://127.0.0.1 push endpoints may register, for a local push service; dev only):
                  %s

                Publish an event to user 42:
                  curl -s http://localhost:%d/v1/events -H 'Authorization: Bearer %s' \\
                    -H 'Content-Type: application/json' \\
                    -d '{"type":"demo.hello","to":{"users":["42"]},"data":{"text":"hi"}}'

                Ctrl-C stops everything (gateways drain first).
                """, (System.nanoTime() - start) / 1e9, dataDir.toAbsolutePath(), platform.bootstrapServers(),
                platform.redisUri(), platform.ingestPort(), DevKeys.PRODUCER_KEY, platform.queryPort(),
                gatewayLines(platform.gatewayPorts()), managementLines(platform), LocalPlatform.DEMO_ROOMS, token,
                demoUrl(platform, token),
                platform.vapidPublicKey(),
                platform.ingestPort(),
                DevKeys.PRODUCER_KEY);
        System.out.flush();
        stopped.await();
        return 0;
    }

    private static String demoUrl(LocalPlatform platform, String token) {
        List<Integer> ports = platform.gatewayPorts();
        StringBuilder gateways = new StringBuilder();
        for (int p : ports) {
            gateways.append(gateways.length() == 0 ? "" : ",").append("http://localhost:").append(p);
        }
        return "http://localhost:" + ports.get(0) + "/?token=" + token + "&gateways=" + gateways
                + "&ingest=http://localhost:" + platform.ingestPort() + "&key=" + DevKeys.PRODUCER_KEY + "&rooms=demo:lobby";
    }

    private static String managementLines(LocalPlatform platform) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("  ingest           http://localhost:%d/metrics%n", platform.ingestManagementPort()));
        sb.append(String.format("  fanout-streams   http://localhost:%d/metrics%n", platform.fanoutManagementPort()));
        sb.append(String.format("  push sender      http://localhost:%d/metrics%n", platform.pushManagementPort()));
        List<Integer> ports = platform.gatewayManagementPorts();
        for (int i = 0; i < ports.size(); i++) {
            sb.append(String.format("  gateway gw-%d     http://localhost:%d/metrics%n", i + 1, ports.get(i)));
        }
        return sb.toString();
    }

    private static String gatewayLines(List<Integer> ports) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ports.size(); i++) {
            sb.append(String.format("  gateway gw-%d     ws://localhost:%d/v1/ws   http://localhost:%d/v1/sse%n",
                    i + 1, ports.get(i), ports.get(i)));
        }
        return sb.toString();
    }
}
