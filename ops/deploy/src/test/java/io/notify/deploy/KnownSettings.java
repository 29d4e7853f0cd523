package io.notify.deploy;

import io.notify.common.config.Settings;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Every setting a Notify service reads, from the modules' {@code config-reference.properties} (the
 * configuration reference, docs/config/; ops/cli's ConfigReferenceTest keeps each file equal to what
 * the config records read), by the environment variable it is also read from. What a container's
 * {@code NOTIFY_*} variable means is looked up here, never guessed: {@code NOTIFY_PUSH_APNS_SIGNING_KEY}
 * is {@code notify.push.apns.signing-key}, not {@code notify.push.apns.signing.key}.
 *
 * <p>A pass-through prefix ({@code notify.kafka.client.*}) is never read from the environment
 * (Settings.withPrefix reads overrides only): its variables are kept apart, as {@link #prefixes}.
 */
final class KnownSettings {

    /** The modules whose config records the deployed services load (common and registry: shared keys). */
    private static final List<String> REFERENCES = List.of(
            "io/notify/common/config-reference.properties",
            "io/notify/registry/config-reference.properties",
            "io/notify/gateway/config-reference.properties",
            "io/notify/fanout/config-reference.properties",
            "io/notify/ingest/config-reference.properties",
            "io/notify/push/config-reference.properties");

    /** Read by something else than a config record: logback (common's logback.xml, docs/observability.md "Logs"). */
    static final List<String> NOT_SETTINGS = List.of("NOTIFY_LOG_FORMAT");

    private static final KnownSettings ALL = load();

    /** Environment name → setting key. */
    private final Map<String, String> byEnv;
    /** Environment name of a pass-through prefix (ending in {@code _}) → its key (ending in {@code *}). */
    private final Map<String, String> prefixes;

    private KnownSettings(Map<String, String> byEnv, Map<String, String> prefixes) {
        this.byEnv = byEnv;
        this.prefixes = prefixes;
    }

    static KnownSettings all() {
        return ALL;
    }

    /** The setting the variable {@code env} stands for, or null when no Notify service reads one by that name. */
    String key(String env) {
        return byEnv.get(env);
    }

    /** The pass-through prefix key ({@code notify.kafka.client.*}) whose environment spelling {@code env} starts with, or null. */
    String prefix(String env) {
        return prefixes.entrySet().stream().filter(e -> env.startsWith(e.getKey())).map(Map.Entry::getValue)
                .findFirst().orElse(null);
    }

    private static KnownSettings load() {
        Map<String, String> byEnv = new TreeMap<>();
        Map<String, String> prefixes = new TreeMap<>();
        for (String resource : REFERENCES) {
            Properties p = new Properties();
            try (InputStream in = KnownSettings.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException(resource + " is not on the test classpath: add the module that owns it"
                            + " to ops/deploy's dependencies");
                }
                p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (String key : new ArrayList<>(p.stringPropertyNames())) {
                if (key.startsWith("default.")) {
                    continue; // a default's description, not a key
                }
                if (key.endsWith("*")) {
                    prefixes.put(Settings.envName(key.substring(0, key.length() - 1)), key);
                } else {
                    byEnv.put(Settings.envName(key), key);
                }
            }
        }
        return new KnownSettings(Map.copyOf(byEnv), Map.copyOf(prefixes));
    }
}
