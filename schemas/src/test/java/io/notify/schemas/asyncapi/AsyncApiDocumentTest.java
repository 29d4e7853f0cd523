package io.notify.schemas.asyncapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Validates docs/asyncapi.yaml with the AsyncAPI parser ({@code @asyncapi/parser}, the library
 * behind {@code asyncapi validate} of the AsyncAPI CLI): the spec's structure and rules, bindings,
 * and every {@code $ref}, into the JSON Schema files included. The parser runs on Node from
 * {@code ops/asyncapi-check} (its {@code package-lock.json} pins every package), installed with
 * {@code npm ci} when the lock file changed since the last install. In the same run a
 * deliberately broken fixture must be reported invalid with both of its errors, so a validator
 * that accepts anything fails the build. Node 18+ and npm are required, not optional: .ci/run
 * installs them; without them this test fails saying so.
 */
class AsyncApiDocumentTest {

    static final Path CHECK = Path.of("..", "ops", "asyncapi-check");
    static final Path BROKEN = CHECK.resolve("fixtures").resolve("broken.asyncapi.yaml");
    /** Written into node_modules after a successful {@code npm ci}: the lock file it installed. */
    static final String STAMP = ".notify-lock.sha256";

    private static Run run;

    record Run(int exit, String output) {
        List<String> linesOf(String file) {
            String prefix = file + ":";
            return output.lines().filter(l -> l.startsWith(prefix)).toList();
        }
    }

    @BeforeAll
    static void validateTheDocumentAndTheBrokenFixture() throws Exception {
        requireTool("node", "--version", "Node.js 18+");
        installParser();
        run = exec(CHECK, 120, "node", "validate.mjs", docArg(AsyncApiDocument.PATH), docArg(BROKEN));
        System.out.println(run.output());
    }

    @Test
    void theDocumentIsValidAsyncApi3() {
        List<String> lines = run.linesOf(docArg(AsyncApiDocument.PATH));
        assertEquals(1, lines.size(), "expected only the verdict, no error or warning:\n" + String.join("\n", lines));
        assertTrue(lines.get(0).contains(": valid AsyncAPI 3.0.0, "), lines.get(0));
    }

    @Test
    void aBrokenDocumentIsReportedInvalidAndFailsTheRun() {
        String broken = String.join("\n", run.linesOf(docArg(BROKEN)));
        assertEquals(1, run.exit(), "the validator's exit code with an invalid document among its arguments\n" + run.output());
        assertTrue(broken.contains("error invalid-ref") && broken.contains("no_such_frame"), "the dangling $ref:\n" + broken);
        assertTrue(broken.contains("/operations/clientReceives/action"), "the AsyncAPI 2 action:\n" + broken);
        assertTrue(broken.contains("INVALID (2 errors)"), broken);
    }

    /** {@code npm ci} in ops/asyncapi-check unless node_modules already holds what package-lock.json pins. */
    private static void installParser() throws Exception {
        String lock = sha256(CHECK.resolve("package-lock.json"));
        Path stamp = CHECK.resolve("node_modules").resolve(STAMP);
        if (Files.isRegularFile(stamp) && Files.readString(stamp).equals(lock)) {
            return;
        }
        requireTool("npm", "--version", "npm");
        Run install = exec(CHECK, 300, "npm", "ci", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund");
        if (install.exit() != 0) {
            fail("npm ci in " + CHECK.toAbsolutePath().normalize() + " failed (exit " + install.exit() + "):\n" + install.output());
        }
        Files.writeString(stamp, lock);
    }

    private static void requireTool(String tool, String versionFlag, String what) throws InterruptedException {
        try {
            Run version = exec(CHECK, 30, tool, versionFlag);
            if (version.exit() == 0) {
                if (tool.equals("node")) {
                    String v = version.output().trim();
                    int major = v.matches("v\\d+\\..*") ? Integer.parseInt(v.substring(1, v.indexOf('.'))) : 0;
                    assertTrue(major >= 18, "docs/asyncapi.yaml is validated with Node.js 18 or newer; found " + v);
                }
                return;
            }
        } catch (IOException e) {
            // not installed: fail below
        }
        fail(what + " is required to validate docs/asyncapi.yaml (AsyncApiDocumentTest) but '" + tool
                + "' is not on PATH: install it (Debian: apt-get install nodejs npm; .ci/run does)");
    }

    private static Run exec(Path dir, int timeoutSeconds, String... command) throws IOException, InterruptedException {
        Path out = Files.createTempFile("asyncapi-check", ".log");
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(nullDevice())).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s:\n" + Files.readString(out));
            }
            return new Run(p.exitValue(), Files.readString(out));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    /** A document as the validator is given it, relative to ops/asyncapi-check (where it runs). */
    private static String docArg(Path fromModule) {
        return CHECK.relativize(fromModule).normalize().toString();
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
