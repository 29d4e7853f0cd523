package io.notify.common.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Typed, validated access to configuration. Each service reads all of its keys through one
 * instance, in one place (its config record's {@code load}), and every error names the key.
 *
 * <p>Precedence, highest first: explicit overrides (command line {@code key=value}, a properties
 * file), environment ({@code notify.ingest.port} is also read as {@code NOTIFY_INGEST_PORT}),
 * then the default given at the call site.
 *
 * <p>Secrets ({@link #isSecret}: keys, tokens, passwords, a Redis URI with a password) are refused
 * on the command line, where every user of the machine can read them ({@code ps}); they come from
 * the environment or a {@code --config} file. No value is ever logged.
 *
 * <p>A listener given at construction hears of every key asked for, with its kind, default and
 * bounds ({@link SettingRead}): that is how the configuration reference (docs/config/) is generated.
 * Without one, reads cost nothing more.
 */
public final class Settings {

    /** One or more parts, largest first or not: 250ms, 30s, 5m, 24h, 7d, 1h30m, 2m30s. */
    private static final Pattern DURATION = Pattern.compile("^(?:\\d+(?:ms|d|h|m|s))+$");
    private static final Pattern DURATION_PART = Pattern.compile("(\\d+)(ms|d|h|m|s)");
    /** Names that hold credentials: producer keys, service tokens, HMAC secrets, passwords, JAAS configs. */
    private static final Pattern SECRET_KEY = Pattern.compile(".*(api-keys|secret|password|token|tokens|jaas\\.config|\\.key|private-key|signing-key|service-account)$");
    /** A URI with user info, which may be a password: {@code redis://:pw@host:6379}, {@code redis://pw@host:6379}. */
    private static final Pattern URI_WITH_PASSWORD = Pattern.compile("^[a-z][a-z0-9+.-]*://[^/@]+@.*$");

    private final Map<String, String> overrides;
    private final Map<String, String> env;
    private final Consumer<SettingRead> listener;

    public Settings(Map<String, String> overrides, Map<String, String> env) {
        this(overrides, env, null);
    }

    /** As {@link #Settings(Map, Map)}, telling {@code listener} (may be null) of every key asked for. */
    public Settings(Map<String, String> overrides, Map<String, String> env, Consumer<SettingRead> listener) {
        this.overrides = Map.copyOf(overrides);
        this.env = Map.copyOf(env);
        this.listener = listener;
    }

    /** Settings from {@code key=value} arguments, an optional {@code --config=FILE}, and the process environment. */
    public static Settings fromArgs(String[] args) {
        return fromArgs(args, System.getenv());
    }

    /** As {@link #fromArgs(String[])}, with {@code env} as the environment (tests; a launcher that builds one). */
    public static Settings fromArgs(String[] args, Map<String, String> env) {
        Map<String, String> values = new HashMap<>();
        for (String arg : args) {
            String a = arg.startsWith("--") ? arg.substring(2) : arg;
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new ConfigException(arg, "expected key=value");
            }
            String key = a.substring(0, eq);
            String value = a.substring(eq + 1);
            if (isSecret(key, value)) {
                throw new ConfigException(key, "is a secret and is not taken from the command line, where other users "
                        + "of the machine can read it: put it in a --config file readable by the service only, or set "
                        + envName(key) + " in the environment (named settings only: pass-through keys such as "
                        + "notify.kafka.client.* are read from the command line and --config files, never from the environment)");
            }
            if (key.equals("config")) {
                readFile(Path.of(value)).forEach(values::putIfAbsent);
            } else {
                values.put(key, value);
            }
        }
        return new Settings(values, env);
    }

    public static Settings of(Map<String, String> values) {
        return new Settings(values, Map.of());
    }

    private static Map<String, String> readFile(Path file) {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new ConfigException("config", "cannot read " + file + ": " + e.getMessage());
        }
        Map<String, String> out = new HashMap<>();
        p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
        return out;
    }

    /** The raw value, or null when unset everywhere. */
    public String raw(String key) {
        if (listener != null) {
            heard(key, SettingRead.Kind.STRING, "", null, null);
        }
        return lookup(key);
    }

    /** Tells the listener; each call site checks for one first, so a read without one formats nothing. */
    private void heard(String key, SettingRead.Kind kind, String def, String min, String max) {
        listener.accept(SettingRead.of(key, kind, def, min, max));
    }

    private String lookup(String key) {
        String v = overrides.get(key);
        if (v == null) {
            v = env.get(envName(key));
        }
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** True for a credential: a key named like one, or a URI value carrying a password. */
    public static boolean isSecret(String key, String value) {
        return SECRET_KEY.matcher(key).matches() || URI_WITH_PASSWORD.matcher(value).matches();
    }

    /** The environment variable a key is also read from: {@code notify.ingest.port} → {@code NOTIFY_INGEST_PORT}. */
    public static String envName(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    public String string(String key, String def) {
        if (listener != null) {
            heard(key, SettingRead.Kind.STRING, def, null, null);
        }
        String v = lookup(key);
        return v == null ? def : v;
    }

    public String required(String key) {
        if (listener != null) {
            heard(key, SettingRead.Kind.STRING, null, null, null);
        }
        String v = lookup(key);
        if (v == null) {
            throw new ConfigException(key, "is required (or set " + envName(key) + ")");
        }
        return v;
    }

    public int intIn(String key, int def, int min, int max) {
        if (listener != null) {
            heard(key, SettingRead.Kind.INT, Integer.toString(def), Integer.toString(min), Integer.toString(max));
        }
        return (int) parseLong(key, def, min, max);
    }

    public long longIn(String key, long def, long min, long max) {
        if (listener != null) {
            heard(key, SettingRead.Kind.LONG, Long.toString(def), Long.toString(min), Long.toString(max));
        }
        return parseLong(key, def, min, max);
    }

    private long parseLong(String key, long def, long min, long max) {
        String v = lookup(key);
        long value;
        if (v == null) {
            value = def;
        } else {
            try {
                value = Long.parseLong(v.replace("_", ""));
            } catch (NumberFormatException e) {
                throw new ConfigException(key, "expected an integer, got '" + v + "'");
            }
        }
        if (value < min || value > max) {
            throw new ConfigException(key, "must be in [" + min + ", " + max + "], got " + value);
        }
        return value;
    }

    public boolean bool(String key, boolean def) {
        if (listener != null) {
            heard(key, SettingRead.Kind.BOOL, Boolean.toString(def), null, null);
        }
        String v = lookup(key);
        if (v == null) {
            return def;
        }
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "1", "on" -> true;
            case "false", "no", "0", "off" -> false;
            default -> throw new ConfigException(key, "expected true or false, got '" + v + "'");
        };
    }

    /** A duration written as {@code 250ms}, {@code 30s}, {@code 5m}, {@code 24h} or {@code 7d}. */
    public Duration duration(String key, Duration def, Duration min, Duration max) {
        if (listener != null) {
            heard(key, SettingRead.Kind.DURATION, SettingRead.format(def), SettingRead.format(min), SettingRead.format(max));
        }
        String v = lookup(key);
        Duration value = v == null ? def : parseDuration(key, v);
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new ConfigException(key, "must be between " + min + " and " + max + ", got " + value);
        }
        return value;
    }

    /** Parses a duration flag of a command-line tool (same syntax), naming the flag on error. */
    public static Duration parseDurationArg(String flag, String value) {
        return parseDuration(flag, value);
    }

    /**
     * The one duration syntax of every setting and every command-line flag: one or more
     * {@code <number><unit>} parts, units {@code ms s m h d}, summed ({@code 1h30m}).
     */
    static Duration parseDuration(String key, String v) {
        String t = v.trim();
        if (!DURATION.matcher(t).matches()) {
            throw new ConfigException(key, "expected a duration like 250ms, 30s, 5m, 24h, 7d or 1h30m, got '" + v + "'");
        }
        Duration total = Duration.ZERO;
        Matcher m = DURATION_PART.matcher(t);
        try {
            while (m.find()) {
                long n = Long.parseLong(m.group(1));
                total = total.plus(switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                });
            }
        } catch (ArithmeticException | NumberFormatException e) {
            throw new ConfigException(key, "duration '" + v + "' is too long");
        }
        return total;
    }

    /** A comma-separated list; empty when unset. */
    public List<String> list(String key) {
        if (listener != null) {
            heard(key, SettingRead.Kind.LIST, "", null, null);
        }
        String v = lookup(key);
        List<String> out = new ArrayList<>();
        if (v != null) {
            for (String part : v.split(",")) {
                if (!part.isBlank()) {
                    out.add(part.trim());
                }
            }
        }
        return out;
    }

    /** Every override whose key starts with {@code prefix}, prefix removed (e.g. pass-through client properties). */
    public Map<String, String> withPrefix(String prefix) {
        if (listener != null) {
            heard(prefix + "*", SettingRead.Kind.PREFIX, "", null, null);
        }
        Map<String, String> out = new HashMap<>();
        overrides.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                out.put(k.substring(prefix.length()), v);
            }
        });
        return out;
    }
}
