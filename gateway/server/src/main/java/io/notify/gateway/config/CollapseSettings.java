package io.notify.gateway.config;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.gateway.rooms.RoomPatterns;
import io.notify.protocol.text.IdChars;
import java.util.List;

/**
 * Which durable event types a catching-up client gets collapsed (docs/protocol.md, "Collapsed
 * catch-up"), key {@code notify.gateway.collapse.types}: a comma-separated list of event-type
 * patterns, each 1..{@value #MAX_PATTERN_CHARS} characters of the event-type alphabet
 * ({@code [A-Za-z0-9._:-]}) and {@code *}, which matches any run of them (the empty one included;
 * every other character matches itself, as in room patterns): {@code order.status},
 * {@code *.progress}. At most {@value #MAX_PATTERNS} patterns. Empty, the default, is off: every
 * event of a backlog is sent.
 */
public record CollapseSettings(List<String> types) {

    public static final String KEY = "notify.gateway.collapse.types";
    public static final int MAX_PATTERNS = 64;
    public static final int MAX_PATTERN_CHARS = 128;
    private static final CollapseSettings OFF = new CollapseSettings(List.of());

    public CollapseSettings {
        types = List.copyOf(types);
        if (types.size() > MAX_PATTERNS) {
            throw new ConfigException(KEY, types.size() + " event-type patterns; at most " + MAX_PATTERNS);
        }
        for (String p : types) {
            if (!IdChars.matches(p, 1, MAX_PATTERN_CHARS, "._:-*", false)) {
                throw new ConfigException(KEY, "an event-type pattern is 1.." + MAX_PATTERN_CHARS
                        + " chars of [A-Za-z0-9._:-] and '*', got '" + (p.length() > 40 ? p.substring(0, 40) + "…" : p) + "'");
            }
        }
    }

    /** No type collapses (the default). */
    public static CollapseSettings off() {
        return OFF;
    }

    static CollapseSettings load(Settings s) {
        List<String> types = s.list(KEY);
        return types.isEmpty() ? OFF : new CollapseSettings(types);
    }

    /** Whether any type collapses. */
    public boolean on() {
        return !types.isEmpty();
    }

    /** Whether events of {@code type} collapse on catch-up. */
    public boolean collapses(String type) {
        for (String p : types) {
            if (RoomPatterns.glob(p, type)) {
                return true;
            }
        }
        return false;
    }
}
