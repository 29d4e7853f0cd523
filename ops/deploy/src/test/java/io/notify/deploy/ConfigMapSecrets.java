package io.notify.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.common.config.Settings;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * No ConfigMap holds what {@link Settings#isSecret} calls a secret: ConfigMaps are readable by
 * anyone who may read the namespace's configuration and show up in {@code kubectl describe}.
 * A ConfigMap entry is an environment variable ({@code NOTIFY_X_Y_Z}, read back as every key it
 * may stand for: each {@code _} a {@code .} or a {@code -}), a settings key, or a
 * {@code *.properties} file given to a service with {@code --config}, whose keys are checked one by one.
 */
final class ConfigMapSecrets {

    /** 2^20 spellings at most; an env name with more underscores than that is not a setting. */
    private static final int MAX_UNDERSCORES = 20;

    private ConfigMapSecrets() {
    }

    static List<String> check(Manifests m) {
        List<String> problems = new ArrayList<>();
        for (JsonNode configMap : m.ofKind("ConfigMap")) {
            configMap.path("data").properties().forEach(e -> {
                String key = e.getKey();
                String value = e.getValue().asText();
                List<String> secrets = key.endsWith(".properties") ? secretProperties(value) : secretKeys(key, value);
                for (String secret : secrets) {
                    problems.add(Manifests.id(configMap) + " key " + key + " holds a secret (" + secret + "): move it to the"
                            + " overlay's secretGenerator (a Secret the container reads with envFrom.secretRef)");
                }
            });
        }
        return problems;
    }

    private static List<String> secretProperties(String file) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.stringPropertyNames().stream().filter(k -> Settings.isSecret(k, p.getProperty(k))).sorted().toList();
    }

    /** The settings key {@code key} may stand for that is a secret with this value, if any. */
    private static List<String> secretKeys(String key, String value) {
        if (key.contains(".")) {
            return Settings.isSecret(key, value) ? List.of(key) : List.of();
        }
        String lower = key.toLowerCase(Locale.ROOT);
        int underscores = (int) lower.chars().filter(c -> c == '_').count();
        if (underscores > MAX_UNDERSCORES) {
            return List.of(key + ": too many underscores to read back as a setting");
        }
        for (long spelling = 0; spelling < 1L << underscores; spelling++) {
            StringBuilder candidate = new StringBuilder(lower.length());
            int bit = 0;
            for (char c : lower.toCharArray()) {
                candidate.append(c != '_' ? c : ((spelling >> bit++) & 1) == 0 ? '.' : '-');
            }
            if (Settings.isSecret(candidate.toString(), value)) {
                return List.of(candidate.toString());
            }
        }
        return List.of();
    }
}
