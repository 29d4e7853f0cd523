package io.notify.e2e.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.notify.devstack.Await;
import io.notify.devstack.FreePorts;
import io.notify.devstack.Infra;
import io.notify.devstack.NodeJs;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.examples.cli.CliClientExample;
import io.notify.examples.cli.CliSettings;
import io.notify.examples.publisher.PublisherExample;
import io.notify.examples.publisher.PublisherSettings;
import io.notify.platform.DevKeys;
import io.notify.platform.Platform;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client as users get it, against a real stack (one gateway), and the two JavaScript examples:
 * {@code npm pack} in clients/js makes the tarball (exactly notify.js, notify.d.ts, README.md,
 * package.json); a scratch project, a copy of examples/browser-bell, installs it ({@code npm install
 * <tgz>}, offline: the package has no dependencies), and
 * <ul>
 *   <li>a Node.js script of that project ({@code subscribe.mjs}, on the package's default in-memory
 *       positions and Node's WebSocket) receives an event that examples/node-publisher publishes
 *       through ingest;</li>
 *   <li>headless Chromium opens the bell page that the example's {@code serve.mjs} serves from the
 *       installed package (its import map resolves {@code @notify/client} to it): the page connects,
 *       an event published by node-publisher rings the bell, a click marks it read and the count
 *       returns to 0 (a state frame);</li>
 *   <li>the gateway's own demo page, whose origin is not on this stack's {@code allowed-origins}
 *       (only the bell's is), shows {@code origin} as the refusal's reason (GET /v1/ws/check).</li>
 *   <li>the two Java examples: examples/java-cli-client's {@code run} connects as a user,
 *       examples/java-publisher's {@code run} publishes to that user straight to Kafka
 *       ({@code NotifyPublisher}), and the client prints exactly that event, stores its position in
 *       its file and stops after it (the calls their {@code main}s make, with this stack's ports,
 *       topic prefix and token instead of notifyctl dev's defaults).</li>
 * </ul>
 * Node.js 20+ and npm are required; the Chromium part is skipped where the Debian chromium package
 * is not installed.
 */
@ExtendWith(NotifyInfraExtension.class)
class ClientPackageIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Path EXAMPLES = Path.of("..", "..", "examples");
    private static final String WHAT = "the packed client and the examples (ClientPackageIT)";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    private static Path app;
    private static int nodeMajor;
    private static int bellPort;
    private static Platform stack;

    @BeforeAll
    static void packInstallAndStart(Infra infra) throws Exception {
        nodeMajor = NodeJs.requireNode(20, WHAT);
        NodeJs.requireNpm(WHAT);
        JsonNode packed = JSON.readTree(NodeJs.runOk(NotifyJsTest.PACKAGE, Duration.ofMinutes(1), Map.of(),
                "npm", "pack", "--json", "--pack-destination", dir.toAbsolutePath().toString())).get(0);
        TreeSet<String> files = new TreeSet<>();
        packed.get("files").forEach(f -> files.add(f.get("path").asText()));
        assertEquals(List.of("README.md", "notify.d.ts", "notify.js", "package.json"), List.copyOf(files), "what the tarball ships");
        Path tarball = dir.resolve(packed.get("filename").asText());

        app = Files.createDirectories(dir.resolve("app"));
        for (String f : List.of("serve.mjs", "index.html")) {
            Files.copy(EXAMPLES.resolve("browser-bell").resolve(f), app.resolve(f));
        }
        try (InputStream script = ClientPackageIT.class.getResourceAsStream("/js/subscribe.mjs")) {
            Files.copy(script, app.resolve("subscribe.mjs"));
        }
        Files.writeString(app.resolve("package.json"), "{\"name\":\"scratch\",\"private\":true,\"type\":\"module\"}\n");
        NodeJs.runOk(app, Duration.ofMinutes(1), Map.of(), "npm", "install", "--offline", "--no-audit", "--no-fund",
                tarball.toAbsolutePath().toString());
        assertTrue(Files.isRegularFile(app.resolve("node_modules/@notify/client/notify.js")));

        bellPort = FreePorts.pick();
        stack = Platform.forTest(infra, dir).gateways("gw-a")
                .gateway("notify.gateway.allowed-origins", "http://127.0.0.1:" + bellPort + ",http://localhost:" + bellPort)
                .start();
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    @Timeout(90)
    void aNodeScriptOnThePackedClientReceivesWhatNodePublisherPublishes() {
        String user = "pack-node";
        List<String> node = new ArrayList<>(List.of("node"));
        node.addAll(NodeJs.webSocketFlags(nodeMajor)); // Node 20: the global WebSocket is behind a flag
        node.add("subscribe.mjs");
        try (NodeJs.Started subscriber = NodeJs.start(app, Map.of("NOTIFY_GATEWAYS", gateway(), "NOTIFY_TOKEN", stack.token(user)),
                "state connected", WAIT, node.toArray(String[]::new))) {
            assertTrue(subscriber.output().contains("state connected gw-a ws"), subscriber.output());
            String published = publish(user, "pack-node-1", "from node-publisher");
            assertTrue(published.startsWith("accepted pack-node-1 ("), published);
            subscriber.awaitLine("the event arrives", "event pack-node-1 u:" + user + " 1 {\"text\":\"from node-publisher\"}", WAIT);
        }
    }

    @Test
    @Timeout(120)
    void theBellPageServesThePackedClientAndTheDemoPageOfARefusedOriginSaysSo() throws Exception {
        Chromium.assumeInstalled();
        String user = "pack-bell";
        try (NodeJs.Started bell = NodeJs.start(app, Map.of("PORT", Integer.toString(bellPort), "NOTIFY_GATEWAYS", gateway(),
                     "NOTIFY_TOKEN", stack.token(user), "NOTIFY_USER", user), "browser-bell: client", WAIT, "node", "serve.mjs");
             Chromium chromium = Chromium.launch(dir.resolve("chromium"))) {
            assertTrue(bell.output().contains("node_modules/@notify/client/notify.js"), "serves the installed package:\n" + bell.output());
            DevToolsPage page = chromium.open("http://127.0.0.1:" + bellPort + "/");
            page.waitFor("the bell page connects", "document.getElementById('state').dataset.state === 'connected'", WAIT);
            page.waitFor("the counts are read after the welcome", "document.getElementById('unread').dataset.count === '0'", WAIT);
            publish(user, "pack-bell-1", "ring");
            page.waitFor("the bell rings", "document.getElementById('unread').dataset.count === '1'", WAIT);
            assertEquals("demo.hello: ring", page.text("document.querySelector('#events li[data-id=\"pack-bell-1\"]').textContent"));
            page.evaluate("document.getElementById('bell').click()");
            page.waitFor("marked read: the state frame brings the count to 0",
                    "document.getElementById('unread').dataset.count === '0'", WAIT);

            // the demo page on the gateway's own origin, which this stack does not allow
            String origin = Platform.http(stack.gateway("gw-a").port()).toString();
            DevToolsPage refused = chromium.open(DemoPageIT.demoUrl(stack, origin, List.of(origin), stack.token(user), "ws"));
            refused.waitFor("the demo page shows why it is refused",
                    "document.getElementById('refusal').dataset.reason === 'origin'", WAIT);
            assertTrue(refused.text("document.getElementById('refusal').textContent").contains("refused by " + origin + ": origin"),
                    refused.describe());
            assertTrue(stack.gateway("gw-a").metrics().count("notify.gateway.handshake.rejections",
                    "transport", "check", "reason", "origin") >= 1, "the page asked GET /v1/ws/check");
        }
    }

    private static String gateway() {
        return Platform.http(stack.gateway("gw-a").port()).toString();
    }

    /** Runs examples/node-publisher against this stack's ingest; its output line. */
    private static String publish(String user, String id, String text) {
        return NodeJs.runOk(EXAMPLES.resolve("node-publisher"), Duration.ofSeconds(30),
                Map.of("NOTIFY_INGEST_URL", Platform.http(stack.ingestPort()).toString(), "NOTIFY_API_KEY", DevKeys.PRODUCER_KEY),
                "node", "publish.mjs", "--user", user, "--id", id, "--text", text).trim();
    }

    @Test
    @Timeout(90)
    void theJavaCliClientPrintsWhatTheJavaPublisherPublished(@TempDir Path work) throws Exception {
        String user = "ex-" + Long.toString(System.nanoTime(), 36);
        Path positions = work.resolve("positions.txt");
        CliSettings client = new CliSettings(List.of(gateway()), stack.token(user), null, positions, 1);
        Output printed = new Output();
        CompletableFuture<Void> clientRun = CompletableFuture.runAsync(() -> {
            try {
                CliClientExample.run(client, printed.stream);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Await.until(() -> "the CLI client connected; it printed:\n" + printed, WAIT, () -> printed.text().contains("state CONNECTED"));

        Output published = new Output();
        Output errors = new Output();
        PublisherSettings publisher = new PublisherSettings(stack.config().bootstrapServers(), stack.config().prefix(), user, "hi from the Java examples");
        assertEquals(0, PublisherExample.run(publisher, published.stream, errors.stream), "publisher failed: " + errors);
        Matcher id = Pattern.compile("published (\\S+) to user " + Pattern.quote(user) + ": ").matcher(published.text());
        assertTrue(id.find(), "the publisher's output: " + published);

        clientRun.get(WAIT.toSeconds(), TimeUnit.SECONDS); // it stops after its one event
        Matcher event = Pattern.compile("(?m)^event u:" + Pattern.quote(user) + " (\\S+):1 demo\\.hello "
                + Pattern.quote(id.group(1)) + " \\{\"text\":\"hi from the Java examples\"}$").matcher(printed.text());
        assertTrue(event.find(), "the CLI client's output lacks the published event " + id.group(1) + ":\n" + printed);
        String stored = Files.readString(positions);
        assertTrue(stored.lines().anyMatch(("u:" + user + "=" + event.group(1) + ":1")::equals), "the position file: " + stored);
    }

    /** What an example printed, readable while it runs. */
    private static final class Output {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        String text() {
            synchronized (stream) {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }

        @Override
        public String toString() {
            return text();
        }
    }
}
