package io.notify.cli.checkout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every {@code ops/notifyctl} command line that docs/BENCHMARKS.md gives as the way to reproduce a
 * figure still parses: each is parsed (not run) by the root {@code ops/notifyctl} runs, which
 * rejects an unknown command, option or value ({@code --help} would not: picocli skips those
 * checks when help is asked for).
 */
class BenchmarkCommandsTest {

    private static final Path BENCHMARKS = Path.of("../../docs/BENCHMARKS.md");

    /** The command lines of the page: lines starting with {@code ops/notifyctl}, continuations joined, comments cut. */
    static List<List<String>> commandLines(List<String> lines) {
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (!line.startsWith("ops/notifyctl ")) {
                continue;
            }
            StringBuilder joined = new StringBuilder();
            while (line.endsWith("\\") && i + 1 < lines.size()) {
                joined.append(line, 0, line.length() - 1).append(' ');
                line = lines.get(++i).strip();
            }
            joined.append(line);
            String text = joined.toString();
            int comment = text.indexOf(" #");
            if (comment >= 0) {
                text = text.substring(0, comment);
            }
            List<String> args = new ArrayList<>(Arrays.asList(text.strip().split("\\s+")));
            args.remove(0); // ops/notifyctl
            // "chaos a|b|c": one command line per alternative
            String[] alternatives = args.size() > 1 ? args.get(1).split("\\|") : new String[] {null};
            for (String alternative : alternatives) {
                List<String> one = new ArrayList<>(args);
                if (alternative != null) {
                    one.set(1, alternative);
                }
                out.add(one);
            }
        }
        return out;
    }

    @Test
    void everyCommandOfTheBenchmarksPageParses() throws IOException {
        List<List<String>> commands = commandLines(Files.readAllLines(BENCHMARKS));
        assertTrue(commands.size() >= 30, "the page's commands were found: " + commands.size());
        for (List<String> command : commands) {
            try {
                CheckoutMain.commandLine().parseArgs(command.toArray(String[]::new));
            } catch (CommandLine.ParameterException e) {
                fail(String.join(" ", command) + ": " + e.getMessage());
            }
        }
    }

    @Test
    void aCommandTheRootDoesNotKnowIsCaught() {
        List<List<String>> commands = commandLines(List.of(
                "ops/notifyctl bench pipeline --runs 3 \\", "  --no-such-flag 1   # a comment", "ops/notifyctl chaos kill-gateway|no-such-scenario"));
        assertEquals(List.of(List.of("bench", "pipeline", "--runs", "3", "--no-such-flag", "1"),
                List.of("chaos", "kill-gateway"), List.of("chaos", "no-such-scenario")), commands);
        assertThrows(CommandLine.UnmatchedArgumentException.class,
                () -> CheckoutMain.commandLine().parseArgs("bench", "pipeline", "--no-such-flag", "1"));
        assertThrows(CommandLine.ParameterException.class, () -> CheckoutMain.commandLine().parseArgs("chaos", "no-such-scenario"));
        assertThrows(CommandLine.ParameterException.class, () -> CheckoutMain.commandLine().parseArgs("bench", "pipeline", "--runs", "three"));
        CheckoutMain.commandLine().parseArgs("chaos", "kill-gateway", "--quick");
    }
}
