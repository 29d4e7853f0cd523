package io.notify.e2e.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.notify.devstack.NodeJs;
import io.notify.protocol.frame.CloseCode;
import io.notify.protocol.frame.SseCursor;
import io.notify.protocol.stream.StreamId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client package {@code clients/js} (@notify/client) in the build: its unit tests
 * ({@code test/*.test.mjs}: backoff, dedup and order, close codes, SSE fallback, rooms, inbox, the
 * refused-handshake check, Node.js) on Node's built-in test runner; its type definitions, by
 * {@code tsc --noEmit} over the typed usage example {@code types-check/usage.ts} (typescript pinned
 * by its package-lock.json, installed with {@code npm ci}); and its version against the project's.
 * The close-code policies are handed over from {@link CloseCode} and the SSE cursor keys of a few
 * streams from {@link SseCursor#key}, so neither can drift from the server's. Node.js 20+ and npm are
 * required (.ci/run installs them): without them this test fails saying so.
 */
class NotifyJsTest {

    /** The package folder, from ops/e2e (where the tests run). */
    static final Path PACKAGE = Path.of("..", "..", "clients", "js");
    static final String WHAT = "the JavaScript client clients/js (NotifyJsTest)";
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void tools() {
        NodeJs.requireNode(20, WHAT);
    }

    @Test
    @Timeout(120)
    void nodeTestRunnerPassesTheClientUnitTests() throws IOException {
        List<String> command = new ArrayList<>(List.of("node", "--test", "--test-reporter=spec"));
        try (Stream<Path> files = Files.list(PACKAGE.resolve("test"))) {
            files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".test.mjs")).sorted()
                    .forEach(f -> command.add("test/" + f));
        }
        assertTrue(command.size() >= 5, "the unit tests are in clients/js/test: " + command);
        NodeJs.Run run = NodeJs.run(PACKAGE, Duration.ofSeconds(90),
                Map.of("NOTIFY_CLOSE_POLICIES", closePolicies(), "NOTIFY_CURSOR_KEYS", cursorKeys()),
                command.toArray(String[]::new));
        System.out.println(run.output());
        assertEquals(0, run.exit(), "node --test failed:\n" + run.output());
        assertTrue(run.output().contains("ℹ fail 0") || run.output().contains("# fail 0"), run.output());
    }

    @Test
    @Timeout(300)
    void theTypeDefinitionsCompileAgainstTheTypedUsageExample() {
        NodeJs.npmCi(PACKAGE, WHAT);
        NodeJs.Run tsc = NodeJs.run(PACKAGE, Duration.ofMinutes(2), Map.of(),
                "node", "node_modules/typescript/bin/tsc", "--noEmit", "-p", "types-check");
        assertEquals(0, tsc.exit(), "tsc --noEmit -p types-check:\n" + tsc.output());
    }

    @Test
    void thePackageIsVersionedAsTheProjectAndHasNoRuntimeDependencies() throws Exception {
        JsonNode pkg = JSON.readTree(PACKAGE.resolve("package.json").toFile());
        assertEquals("@notify/client", pkg.get("name").asText());
        assertEquals(npmVersion(projectVersion()), pkg.get("version").asText(),
                "package.json's version follows the root pom's (without -SNAPSHOT)");
        assertTrue(pkg.path("dependencies").isMissingNode() || pkg.get("dependencies").isEmpty(), "no runtime dependencies");
        assertEquals("module", pkg.get("type").asText());
        JsonNode lock = JSON.readTree(PACKAGE.resolve("package-lock.json").toFile());
        assertEquals(pkg.get("version").asText(), lock.get("version").asText(), "package-lock.json is up to date");
    }

    /** The npm version of a Maven version: 0.1.0-SNAPSHOT is heading for 0.1.0, and npm has no snapshots. */
    static String npmVersion(String mavenVersion) {
        return mavenVersion.replaceFirst("-SNAPSHOT$", "");
    }

    /** The root pom's {@code <version>}. */
    static String projectVersion() throws Exception {
        var pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("..", "..", "pom.xml").toFile());
        var children = pom.getDocumentElement().getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i).getNodeName().equals("version")) {
                return children.item(i).getTextContent().trim();
            }
        }
        throw new AssertionError("the root pom has no <version>");
    }

    /** {"1000":"never","1001":"promptly",...} from the server's CloseCode enum. */
    static String closePolicies() {
        StringJoiner json = new StringJoiner(",", "{", "}");
        for (CloseCode c : CloseCode.values()) {
            json.add("\"" + c.code() + "\":\"" + c.policy().name().toLowerCase(Locale.ROOT) + "\"");
        }
        return json.toString();
    }

    /** {"u:42":"23xr7",...}: the composite SSE cursor's key of a few streams, from the server's SseCursor. */
    static String cursorKeys() {
        StringJoiner json = new StringJoiner(",", "{", "}");
        for (String stream : List.of("u:42", "r:chat-1", "b:all", "r:demo:lobby", "r:" + "Zz9._:-".repeat(18))) {
            json.add("\"" + stream + "\":\"" + SseCursor.key(StreamId.parse(stream)) + "\"");
        }
        return json.toString();
    }
}
