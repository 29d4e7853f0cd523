package io.notify.common.config;

import java.lang.reflect.RecordComponent;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The {@code toString} of a configuration record with its secrets replaced by {@code ***}: a config
 * is printed by whoever debugs it, and a secret must not reach a log that way. Secrets are components
 * named like one (secret, password, token, api keys, JAAS config), string values that are URIs with
 * user info, and the entries of map components whose keys name one ({@link Settings#isSecret}).
 */
public final class Redacted {

    private static final String MASK = "***";
    private static final Pattern SECRET_NAME = Pattern.compile(".*(secret|password|token|tokens|apikeys|jaasconfig)$");

    private Redacted() {
    }

    /** {@code Name[a=1, hmacSecret=***, kafkaClient={sasl.jaas.config=***}]}. */
    public static String toString(Record r) {
        StringJoiner out = new StringJoiner(", ", r.getClass().getSimpleName() + "[", "]");
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            Object value;
            try {
                value = c.getAccessor().invoke(r);
            } catch (ReflectiveOperationException e) {
                value = "?";
            }
            out.add(c.getName() + "=" + redact(c.getName(), value));
        }
        return out.toString();
    }

    private static Object redact(String name, Object value) {
        if (value == null) {
            return null;
        }
        if (SECRET_NAME.matcher(name.toLowerCase(Locale.ROOT).replace("-", "").replace(".", "")).matches()) {
            return MASK;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> shown = new TreeMap<>();
            map.forEach((k, v) -> shown.put(String.valueOf(k),
                    Settings.isSecret(String.valueOf(k), String.valueOf(v)) ? MASK : v));
            return shown;
        }
        if (value instanceof String s && Settings.isSecret(name, s)) {
            return MASK; // a URI with user info
        }
        return value;
    }
}
