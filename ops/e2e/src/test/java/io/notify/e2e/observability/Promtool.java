package io.notify.e2e.observability;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Prometheus' own checker, {@code promtool} (Debian package {@code prometheus}; .ci/run installs it):
 * the build runs it on ops/prometheus and on the services' {@code /metrics}. It is part of what the
 * build must check, so a machine without it fails with the install command, never skips.
 */
final class Promtool {

    /** What one run printed (stdout and stderr, interleaved) and its exit code. */
    record Result(int exit, String output) {
        boolean ok() {
            return exit == 0;
        }
    }

    /** The repository's ops/ directory: the tests run in ops/e2e. */
    static final Path OPS = Path.of("..").toAbsolutePath().normalize();
    static final Path ALERTS = OPS.resolve("prometheus/alerts.yml");
    static final Path ALERTS_TEST = OPS.resolve("prometheus/alerts-test.yml");
    static final Path DASHBOARD = OPS.resolve("grafana/notify.json");

    private Promtool() {
    }

    /** promtool from PATH, or a failure that says how to install it. */
    static Path require() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Path.of(dir, "promtool");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return fail("promtool is not installed: the build checks ops/prometheus and /metrics with it "
                + "(apt-get install prometheus; .ci/run does)");
    }

    /** Runs {@code promtool args...} in {@code dir} with {@code stdin} as its input (null: none), bounded at 60 s. */
    static Result run(Path dir, String stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(require().toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        if (stdin != null) {
            try (var in = p.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        } else {
            p.getOutputStream().close();
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return fail("promtool " + String.join(" ", args) + " did not finish within 60 s");
        }
        return new Result(p.exitValue(), output);
    }
}
