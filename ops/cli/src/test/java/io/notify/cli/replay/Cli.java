package io.notify.cli.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.cli.Notifyctl;
import io.notify.devstack.Infra;
import io.notify.protocol.NotifyJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * Runs notifyctl in-process as {@code main} would, capturing stdout (the records, written as bytes
 * to System.out) and stderr (picocli's error writer); the tests of replay, tail and why share it.
 * Not for concurrent use: System.out is global.
 */
public final class Cli {

    /** The exit code and both streams of one run. */
    public record Result(int code, String out, String err) {

        public List<String> lines() {
            return out.lines().toList();
        }

        public List<JsonNode> json() {
            List<JsonNode> nodes = new ArrayList<>();
            for (String line : lines()) {
                try {
                    nodes.add(NotifyJson.mapper().readTree(line));
                } catch (Exception e) {
                    throw new UncheckedIOException(new java.io.IOException("not a JSON line: " + line, e));
                }
            }
            return nodes;
        }
    }

    private Cli() {
    }

    /** The command line {@code args} plus the infra's broker and topic prefix, as every IT of a real broker runs notifyctl. */
    public static String[] against(Infra infra, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--bootstrap-servers", infra.bootstrapServers(), "--topic-prefix", infra.prefix()));
        return all.toArray(String[]::new);
    }

    public static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        PrintStream original = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            CommandLine cmd = new CommandLine(new Notifyctl());
            cmd.setErr(new PrintWriter(err, true));
            int code = cmd.execute(args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(original);
        }
    }
}
