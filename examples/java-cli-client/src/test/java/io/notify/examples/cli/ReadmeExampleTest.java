package io.notify.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SDK README's five-minute example is this example's {@code connect} method, line for line, so
 * the README shows code that compiles (this module compiles it) and runs (ClientPackageIT runs it).
 */
class ReadmeExampleTest {

    private static final Path SOURCE = Path.of("src/main/java/io/notify/examples/cli/CliClientExample.java");
    private static final Path README = Path.of("../../gateway/client/README.md");

    @Test
    void theSdkReadmeShowsTheCompiledExample() throws IOException {
        List<String> code = between(Files.readAllLines(SOURCE), "// README example: start", "// README example: end");
        List<String> readme = Files.readAllLines(README);
        int heading = readme.indexOf("## Five minutes");
        assertTrue(heading >= 0, "gateway/client/README.md has no '## Five minutes' section");
        List<String> shown = between(readme.subList(heading, readme.size()), "```java", "```");
        assertTrue(code.size() > 10, "the example's marked lines: " + code);
        assertEquals(String.join("\n", dedent(code)), String.join("\n", dedent(shown)),
                "gateway/client/README.md's five-minute example differs from " + SOURCE + "; copy the marked lines over");
    }

    private static List<String> between(List<String> lines, String startPrefix, String end) {
        int from = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (from < 0 && lines.get(i).trim().startsWith(startPrefix)) {
                from = i + 1;
            } else if (from >= 0 && lines.get(i).trim().equals(end)) {
                return lines.subList(from, i);
            }
        }
        throw new AssertionError("no block from '" + startPrefix + "' to '" + end + "'");
    }

    private static List<String> dedent(List<String> lines) {
        int indent = lines.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        return lines.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).toList();
    }
}
