package io.notify.common.config;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * One key a config record asked {@link Settings} for, as it asked: the kind of value, the default
 * given at the call site, the bounds, and whether the key names a secret. A {@link Settings} made
 * with a listener ({@link Settings#Settings(java.util.Map, java.util.Map, Consumer)}) reports every
 * read so; {@code notifyctl config-reference} writes the configuration reference (docs/config/) from
 * these reads, so the reference is what the code reads, not what someone remembered to write down.
 *
 * @param key          the setting, e.g. {@code notify.gateway.port}; a {@link Kind#PREFIX} read ends in {@code *}
 * @param kind         how the value is parsed
 * @param defaultValue the default in the settings syntax ({@code 30s}, {@code 8081}), {@code ""} for none,
 *                     null when the key is required
 * @param min          the lower bound in the settings syntax, or null when unbounded
 * @param max          the upper bound in the settings syntax, or null when unbounded
 * @param secret       the key holds a credential ({@link Settings#isSecret}): never taken from the command line
 */
public record SettingRead(String key, Kind kind, String defaultValue, String min, String max, boolean secret) {

    /** How a value is parsed: the {@link Settings} method that read it. */
    public enum Kind {
        /** {@link Settings#string}, {@link Settings#required}, {@link Settings#raw}. */
        STRING,
        /** {@link Settings#intIn}. */
        INT,
        /** {@link Settings#longIn}. */
        LONG,
        /** {@link Settings#bool}. */
        BOOL,
        /** {@link Settings#duration}: {@code 250ms}, {@code 30s}, {@code 5m}, {@code 24h}, {@code 7d}, {@code 1h30m}. */
        DURATION,
        /** {@link Settings#list}: comma-separated. */
        LIST,
        /** {@link Settings#withPrefix}: every {@code <prefix><name>=<value>} passed through. */
        PREFIX
    }

    /** Whether the key has no default: the service refuses to start without it. */
    public boolean required() {
        return defaultValue == null;
    }

    static SettingRead of(String key, Kind kind, String defaultValue, String min, String max) {
        return new SettingRead(key, kind, defaultValue, min, max, Settings.isSecret(key, ""));
    }

    /** {@code d} as the settings syntax writes it, largest unit first: {@code 0s}, {@code 250ms}, {@code 1h30m}, {@code 7d}. */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        StringBuilder out = new StringBuilder();
        long ms = d.toMillis();
        long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1000L, 1L};
        String[] units = {"d", "h", "m", "s", "ms"};
        for (int i = 0; i < sizes.length; i++) {
            if (ms >= sizes[i]) {
                out.append(ms / sizes[i]).append(units[i]);
                ms %= sizes[i];
            }
        }
        return out.toString();
    }
}
