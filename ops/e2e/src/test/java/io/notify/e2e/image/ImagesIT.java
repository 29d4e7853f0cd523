package io.notify.e2e.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.notify.devstack.FreePorts;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.support.WsClient;
import io.notify.platform.Platform;
import io.notify.platform.PlatformConfig;
import io.notify.platform.Publishing;
import io.notify.platform.ServiceProcess;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.WelcomeFrame;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The four OCI images the build makes (jib {@code buildTar}, root pom; docs/deploy-images.md) are
 * containers for their services: non-root, a JVM sized from the container's memory, and — run from
 * their own root file systems with nothing of the host's but the kernel and the network — a whole
 * platform (ingest → fanout-streams → gateway, and the push sender started beside them until ready)
 * that delivers an event to a WebSocket client.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(300)
class ImagesIT {

    static final Duration START = Duration.ofSeconds(120);
    /** As for every child service of a test: a small heap and C1 only, through the variable a container takes JVM options from. */
    static final Map<String, String> TEST_JVM = Map.of("JAVA_TOOL_OPTIONS", "-Xmx256m -XX:TieredStopAtLevel=1");
    static final Path ROOT = Path.of("").toAbsolutePath().resolve("../..").normalize();
    static final Map<String, Path> TARS = Map.of(
            "ingest", ROOT.resolve("ingest/target/jib-image.tar"),
            "fanout-streams", ROOT.resolve("fanout-streams/target/jib-image.tar"),
            "gateway", ROOT.resolve("gateway/server/target/jib-image.tar"),
            "push", ROOT.resolve("push/target/jib-image.tar"));
    static final Map<String, String> MAIN_CLASS = Map.of(
            "ingest", "io.notify.ingest.IngestMain",
            "fanout-streams", "io.notify.fanout.FanoutMain",
            "gateway", "io.notify.gateway.GatewayMain",
            "push", "io.notify.push.PushMain");
    static final Map<String, List<String>> PORTS = Map.of(
            "ingest", List.of("8080/tcp", "8180/tcp"),
            "fanout-streams", List.of("8090/tcp", "8190/tcp"),
            "gateway", List.of("8081/tcp", "8181/tcp"),
            "push", List.of("8290/tcp"));

    @TempDir
    static Path images;
    static final Map<String, ContainerImage> UNPACKED = new java.util.HashMap<>();

    /** Each image unpacked once for the class (the platform test writes only under their /tmp). */
    private static ContainerImage unpack(String service) throws Exception {
        Path tar = TARS.get(service);
        assumeTrue(Files.exists(tar), "no image at " + tar + " (built with -Dnotify.image.skip=true?)");
        ContainerImage image = UNPACKED.get(service);
        if (image == null) {
            image = ContainerImage.unpack(tar, images.resolve(service));
            UNPACKED.put(service, image);
        }
        return image;
    }

    private static Map<String, String> env(ContainerImage image) {
        Map<String, String> env = new java.util.LinkedHashMap<>(image.environment());
        env.putAll(TEST_JVM);
        return env;
    }

    @Test
    void eachImageIsConfiguredForANonRootUserAndAJvmSizedForContainers() throws Exception {
        for (String service : TARS.keySet()) {
            ContainerImage image = unpack(service);
            assertEquals("65532:65532", image.user(), service + " runs as the non-root user notify");
            List<String> e = image.entrypoint();
            assertEquals("/opt/java/bin/java", e.get(0), service + " entrypoint " + e);
            assertTrue(Files.isExecutable(image.rootfs().resolve("opt/java/bin/java")), service + ": java is executable");
            assertTrue(e.contains("-XX:MaxRAMPercentage=75.0"), service + ": heap from the container's limit: " + e);
            assertTrue(e.contains("-XX:+ExitOnOutOfMemoryError"), service + ": " + e);
            assertEquals(MAIN_CLASS.get(service), e.get(e.size() - 1), service + " main class");
            assertEquals(PORTS.get(service), image.exposedPorts().stream().sorted().toList(), service + " ports");
            assertTrue(Files.readString(image.rootfs().resolve("etc/passwd")).contains("notify:x:65532:65532"), service);
            assertTrue(Files.exists(image.rootfs().resolve("app/jib-classpath-file")), service + ": classpath file");
        }
    }

    @Test
    void aPlatformOfTheThreeImagesDeliversAnEvent(Infra infra, @TempDir Path dir) throws Exception {
        PlatformConfig config = Platform.forTest(infra, dir).config();
        config.createTopics();
        ContainerImage ingestImage = unpack("ingest");
        ContainerImage fanoutImage = unpack("fanout-streams");
        ContainerImage gatewayImage = unpack("gateway");
        List<ServiceProcess> started = new ArrayList<>();
        try {
            int[] f = FreePorts.pick(2);
            ServiceProcess fanout = ServiceProcess.launched("fanout-img", f[0], f[1], fanoutImage.launcher(),
                    env(fanoutImage), config.fanoutSettings("/tmp/fanout-state", f[0], f[1]), dir.resolve("fanout.log"));
            started.add(fanout.start());
            int[] g = FreePorts.pick(2);
            ServiceProcess gateway = ServiceProcess.launched("gw-img", g[0], g[1], gatewayImage.launcher(),
                    env(gatewayImage), config.gatewaySettings("gw-img", g[0], g[1], List.of(fanout.baseUrl()), ""),
                    dir.resolve("gateway.log"));
            started.add(gateway.start());
            int[] m = FreePorts.pick(1); // the push sender has no client port: its management listener is what is probed
            ContainerImage pushImage = unpack("push");
            started.add(ServiceProcess.launched("push-img", m[0], m[0], pushImage.launcher(), env(pushImage),
                    config.pushSettings(m[0]), dir.resolve("push.log")).start());
            int[] i = FreePorts.pick(2);
            ServiceProcess ingest = ServiceProcess.launched("ingest-img", i[0], i[1], ingestImage.launcher(),
                    env(ingestImage), config.ingestSettings(i[0], i[1], ""), dir.resolve("ingest.log"));
            started.add(ingest.start());
            for (ServiceProcess p : started) {
                p.awaitReady(START); // /readyz on the management port, as the Kubernetes probes ask
                if (ContainerImage.runsAsImageUser()) {
                    assertEquals(65532, ContainerImage.uidOf(p.pid()), p.name() + " runs as the image's user");
                }
            }

            try (WsClient client = WsClient.connect(Platform.ws(gateway.port()), config.keys().token("ada"))) {
                client.resumeLive();
                client.expect(WelcomeFrame.class, START);
                Publishing.to(URI.create(ingest.baseUrl())).publish("ada", "img-1");
                List<EventFrame> got = client.events(1, START);
                assertEquals("img-1", got.get(0).id());
                assertEquals(1, got.get(0).seq(), "the first event of ada's stream");
            }
        } catch (Exception | Error e) {
            for (ServiceProcess p : started) { // the temporary directory goes with the test: keep the evidence
                List<String> lines = Files.readAllLines(p.logFile());
                System.out.println("--- " + p.name() + " (last 40 lines of its log)");
                lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(System.out::println);
            }
            throw e;
        } finally {
            for (int k = started.size() - 1; k >= 0; k--) {
                started.get(k).close();
            }
        }
    }
}
