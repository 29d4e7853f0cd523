package io.notify.e2e.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.schemas.protocol.CloseCode;
import io.notify.schemas.protocol.SseCursor;
import io.notify.schemas.stream.StreamId;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the browser client's unit tests ({@code src/test/resources/js/*.test.mjs}: backoff
 * distribution and reset, dedup and order, close codes, SSE fallback, rooms) on Node's built-in test
 * runner, against the notify.js the gateway serves (taken from its jar on the classpath). The
 * close-code policies are handed over from {@link CloseCode} and the SSE cursor keys of a few streams
 * from {@link SseCursor#key}, so neither can drift from the server's. Skipped where {@code node} (18
 * or newer) is not installed.
 */
class NotifyJsTest {

    @Test
    @Timeout(120)
    void nodeTestRunnerPassesTheClientUnitTests() throws Exception {
        int major = nodeMajorVersion();
        Assumptions.assumeTrue(major >= 18, "node 18+ not found on PATH (found major " + major + "): JS unit tests skipped");

        Path dir = Path.of("target", "notify-js");
        Files.createDirectories(dir);
        copyResource("/io/notify/gateway/web/notify.js", dir.resolve("notify.js"));
        copyResource("/js/notify.test.mjs", dir.resolve("notify.test.mjs"));

        ProcessBuilder pb = new ProcessBuilder("node", "--test", "--test-reporter=spec", "notify.test.mjs")
                .directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("NOTIFY_CLOSE_POLICIES", closePolicies());
        pb.environment().put("NOTIFY_CURSOR_KEYS", cursorKeys());
        pb.environment().put("NO_COLOR", "1");
        Process node = pb.start();
        String output;
        try (InputStream out = node.getInputStream()) {
            output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(node.waitFor(60, TimeUnit.SECONDS), "node --test did not finish");
        System.out.println(output);
        assertEquals(0, node.exitValue(), "node --test failed:\n" + output);
        assertTrue(output.contains("# fail 0") || output.contains("ℹ fail 0"), output);
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

    private static int nodeMajorVersion() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            String v;
            try (InputStream in = p.getInputStream()) {
                v = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            }
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0 || !v.matches("v\\d+\\..*")) {
                return 0;
            }
            return Integer.parseInt(v.substring(1, v.indexOf('.')));
        } catch (IOException e) {
            return 0; // not installed
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    private static void copyResource(String name, Path target) throws IOException {
        try (InputStream in = NotifyJsTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException(name + " is not on the test classpath");
            }
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
