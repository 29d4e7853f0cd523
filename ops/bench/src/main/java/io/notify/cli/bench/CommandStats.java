package io.notify.cli.bench;

import java.util.HashMap;
import java.util.Map;

/**
 * Calls per command from Redis {@code INFO commandstats}: an external count of what the app under
 * test asked Redis, independent of the app's own meters. Counts are server-wide, so callers
 * compare commands only the measured client sends (the router's reads: ZRANGE, MGET).
 */
record CommandStats(Map<String, Long> calls) {

    CommandStats {
        calls = Map.copyOf(calls);
    }

    /** Parses lines like {@code cmdstat_zrange:calls=12,usec=80,usec_per_call=6.67,...}. */
    static CommandStats parse(String info) {
        Map<String, Long> calls = new HashMap<>();
        for (String line : info.split("\r?\n")) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            int colon = line.indexOf(':');
            String command = line.substring("cmdstat_".length(), colon);
            for (String field : line.substring(colon + 1).split(",")) {
                if (field.startsWith("calls=")) {
                    calls.put(command, Long.parseLong(field.substring("calls=".length()).trim()));
                }
            }
        }
        return new CommandStats(calls);
    }

    long calls(String command) {
        return calls.getOrDefault(command, 0L);
    }

    /** The router's registry reads: one ZRANGE per stream-set read, one MGET per liveness read. */
    long routerReads() {
        return calls("zrange") + calls("mget");
    }

    /** Calls made between {@code earlier} and this snapshot, per command (zero entries left out). */
    CommandStats minus(CommandStats earlier) {
        Map<String, Long> delta = new HashMap<>();
        calls.forEach((command, n) -> {
            long d = n - earlier.calls(command);
            if (d != 0) {
                delta.put(command, d);
            }
        });
        return new CommandStats(delta);
    }
}
