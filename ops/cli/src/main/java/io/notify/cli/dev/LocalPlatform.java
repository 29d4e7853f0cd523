package io.notify.cli.dev;

import io.notify.devstack.DevStack;
import io.notify.devstack.DevStackOptions;
import io.notify.gateway.GatewayServer;
import io.notify.platform.DevKeys;
import io.notify.platform.Platform;
import io.notify.platform.PlatformBuilder;
import io.notify.platform.PlatformConfig;
import io.notify.push.webpush.VapidKeys;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code notifyctl dev}: the whole platform in one process on embedded defaults — Kafka (KRaft) and
 * Redis from devstack, then the platform kit's {@link Platform} with production topic names, the
 * data dir's {@link DevKeys}, fixed ports and gateways {@code gw-1..N} whose demo pages may connect
 * to every node and publish through ingest, with presence on for the demo's rooms ({@link #DEMO_ROOMS}).
 * {@link #close} drains the gateways first, then stops everything in reverse order.
 */
public final class LocalPlatform implements AutoCloseable {

    /** The rooms of the demo page: the dev token's {@code rooms} claim allows them, and presence is on for them. */
    public static final String DEMO_ROOMS = "demo:*";

    /** The port examples/browser-bell serves its page on by default: the gateways allow its origins too. */
    public static final int BELL_EXAMPLE_PORT = 8000;

    /** Ports and sizes of a local platform. */
    public record Options(Path dataDir, int kafkaPort, int redisPort, int ingestPort, int queryPort,
                          List<Integer> gatewayPorts, String drainWindow) {
    }

    private final DevStack infra;
    private final Platform platform;

    private LocalPlatform(DevStack infra, Platform platform) {
        this.infra = infra;
        this.platform = platform;
    }

    public static LocalPlatform start(Options o) throws Exception {
        DevStack infra = DevStack.start(DevStackOptions.dev(o.dataDir()).withKafkaPort(o.kafkaPort()).withRedisPort(o.redisPort())
                .withKafkaControllerPort(o.kafkaPort() + 1));
        try {
            PlatformBuilder b = Platform.builder(infra.bootstrapServers(), infra.redisUri(), o.dataDir())
                    .keys(DevKeys.inDataDir(o.dataDir()))
                    .vapid(vapidInDataDir(o.dataDir()))
                    .ingestPort(o.ingestPort())
                    .queryPort(o.queryPort())
                    .gatewayPorts(o.gatewayPorts())
                    .browserOrigins()
                    .drainOnClose()
                    .gateway("notify.gateway.drain-window", o.drainWindow())
                    .gateway("notify.gateway.drain-grace", "1s")
                    .gateway("notify.gateway.rooms.presence", DEMO_ROOMS)
                    // the demo pages' origins (browserOrigins) and the browser-bell example's
                    .gateway("notify.gateway.allowed-origins", PlatformConfig.browserOrigins(
                            Stream.concat(o.gatewayPorts().stream(), Stream.of(BELL_EXAMPLE_PORT)).toList()));
            for (int i = 1; i <= o.gatewayPorts().size(); i++) {
                b.gateways("gw-" + i);
            }
            return new LocalPlatform(infra, b.start());
        } catch (Exception | Error e) {
            infra.close();
            throw e;
        }
    }

    /** The dev VAPID pair, kept in the data dir: browsers' push subscriptions are bound to it, so it outlives a restart. */
    static VapidKeys vapidInDataDir(Path dataDir) throws java.io.IOException {
        Path file = dataDir.resolve("vapid.pem");
        if (!java.nio.file.Files.exists(file)) {
            java.nio.file.Files.createDirectories(dataDir);
            java.nio.file.Files.writeString(file, VapidKeys.generate().toPkcs8Pem());
        }
        return VapidKeys.fromPem(file);
    }

    /** The VAPID public key browsers subscribe with ({@code GET /v1/push/config} answers it too). */
    public String vapidPublicKey() {
        return platform.config().vapid().publicKeyBase64Url();
    }

    public int pushManagementPort() {
        return platform.pushManagementPort();
    }

    public DevKeys keys() {
        return platform.config().keys();
    }

    public int ingestPort() {
        return platform.ingestPort();
    }

    public int queryPort() {
        return platform.queryPort();
    }

    public List<Integer> gatewayPorts() {
        return platform.gatewayPorts();
    }

    public int ingestManagementPort() {
        return platform.ingestManagementPort();
    }

    public int fanoutManagementPort() {
        return platform.fanoutManagementPort();
    }

    public List<Integer> gatewayManagementPorts() {
        return platform.gateways().values().stream().map(GatewayServer::managementPort).toList();
    }

    public String bootstrapServers() {
        return infra.bootstrapServers();
    }

    public String redisUri() {
        return infra.redisUri();
    }

    @Override
    public void close() {
        platform.close();
        infra.close();
    }
}
