package io.notify.examples.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What the CLI client needs, from the environment and the command line, with the defaults of
 * {@code ops/notifyctl dev} (two gateway nodes on ports 8081 and 8082).
 *
 * @param gateways  {@code NOTIFY_GATEWAYS}, comma-separated base URLs, default
 *                  {@code http://localhost:8081,http://localhost:8082}
 * @param token     {@code NOTIFY_TOKEN}: a client token ({@code ops/notifyctl token --user 42});
 *                  null when {@code tokenFile} is given
 * @param tokenFile {@code NOTIFY_TOKEN_FILE}: a file holding the token, read again at every
 *                  connect, so a fresh token written there is picked up after a 4001 (token expired)
 * @param positions {@code NOTIFY_POSITIONS}: the position file, default {@code notify-positions.txt}
 * @param maxEvents first argument: stop after this many events; 0 (the default) runs until Ctrl-C
 */
public record CliSettings(List<String> gateways, String token, Path tokenFile, Path positions, long maxEvents) {

    public static final String DEFAULT_GATEWAYS = "http://localhost:8081,http://localhost:8082";

    public CliSettings {
        gateways = List.copyOf(gateways);
        if (gateways.isEmpty()) {
            throw new IllegalArgumentException("NOTIFY_GATEWAYS must name at least one gateway, e.g. " + DEFAULT_GATEWAYS);
        }
        if ((token == null || token.isBlank()) && tokenFile == null) {
            throw new IllegalArgumentException("set NOTIFY_TOKEN (or NOTIFY_TOKEN_FILE) to a client token; "
                    + "with ops/notifyctl dev running: NOTIFY_TOKEN=$(ops/notifyctl token --user 42)");
        }
        if (positions == null) {
            throw new IllegalArgumentException("positions file is required");
        }
        if (maxEvents < 0) {
            throw new IllegalArgumentException("the event count (first argument) must be 0 (run until Ctrl-C) or more, got " + maxEvents);
        }
    }

    /** Reads {@code env} (System.getenv() in main) and {@code args}: {@code [maxEvents]}. */
    public static CliSettings from(Map<String, String> env, String... args) {
        if (args.length > 1) {
            throw new IllegalArgumentException("usage: CliClientExample [maxEvents]; got " + args.length + " arguments");
        }
        long max;
        try {
            max = args.length == 1 ? Long.parseLong(args[0]) : 0;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the event count (first argument) must be a number, got '" + args[0] + "'");
        }
        String file = env.get("NOTIFY_TOKEN_FILE");
        return new CliSettings(
                Arrays.stream(env.getOrDefault("NOTIFY_GATEWAYS", DEFAULT_GATEWAYS).split(","))
                        .map(String::trim).filter(s -> !s.isEmpty()).toList(),
                env.get("NOTIFY_TOKEN"),
                file == null || file.isBlank() ? null : Path.of(file),
                Path.of(env.getOrDefault("NOTIFY_POSITIONS", "notify-positions.txt")),
                max);
    }

    /** The token for the next connect: the file's content when there is one (read again every time), else NOTIFY_TOKEN. */
    public String currentToken() throws IOException {
        return tokenFile != null ? Files.readString(tokenFile).trim() : token;
    }
}
