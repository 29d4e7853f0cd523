package io.notify.schemas.asyncapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.NodeJs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Validates docs/asyncapi.yaml with the AsyncAPI parser ({@code @asyncapi/parser}, the library
 * behind {@code asyncapi validate} of the AsyncAPI CLI): the spec's structure and rules, bindings,
 * and every {@code $ref}, into the JSON Schema files included. The parser runs on Node from
 * {@code ops/asyncapi-check} (its {@code package-lock.json} pins every package), installed with
 * {@code npm ci} when the lock file changed since the last install ({@link NodeJs}, devstack). In the same run a
 * deliberately broken fixture must be reported invalid with both of its errors, so a validator
 * that accepts anything fails the build. Node 18+ and npm are required, not optional: .ci/run
 * installs them; without them this test fails saying so.
 */
class AsyncApiDocumentTest {

    static final Path CHECK = Path.of("..", "ops", "asyncapi-check");
    static final Path BROKEN = CHECK.resolve("fixtures").resolve("broken.asyncapi.yaml");
    private static final String WHAT = "validating docs/asyncapi.yaml (AsyncApiDocumentTest)";

    private static Run run;

    record Run(int exit, String output) {
        List<String> linesOf(String file) {
            String prefix = file + ":";
            return output.lines().filter(l -> l.startsWith(prefix)).toList();
        }
    }

    @BeforeAll
    static void validateTheDocumentAndTheBrokenFixture() {
        NodeJs.requireNode(18, WHAT);
        NodeJs.npmCi(CHECK, WHAT);
        NodeJs.Run r = NodeJs.run(CHECK, Duration.ofMinutes(2), Map.of(), "node", "validate.mjs",
                docArg(AsyncApiDocument.PATH), docArg(BROKEN));
        run = new Run(r.exit(), r.output());
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

    /** A document as the validator is given it, relative to ops/asyncapi-check (where it runs). */
    private static String docArg(Path fromModule) {
        return CHECK.relativize(fromModule).normalize().toString();
    }
}
