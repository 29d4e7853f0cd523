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
import java.util.Set;

/**
 * No ConfigMap holds what {@link Settings#isSecret} calls a secret, nor a provider's private key:
 * ConfigMaps are readable by anyone who may read the namespace's configuration and show up in
 * {@code kubectl describe}. A ConfigMap entry is an environment variable ({@code NOTIFY_X_Y_Z}: the
 * setting it is read as ({@link KnownSettings}), or, for a name no service reads, every key it may
 * stand for, each {@code _} a {@code .} or a {@code -}), a settings key, or a {@code *.properties}
 * file given to a service with {@code --config}, whose keys are checked one by one.
 *
 * <p>Beyond {@link Settings#isSecret}, a value holding a private key (a PEM {@code PRIVATE KEY}
 * block, or a service account JSON's {@code "private_key"}) is a secret whatever its name. One
 * exception the other way: the push sender's FCM service account and APNs signing key are settings
 * that take either the key or the path of its file ({@link #KEY_OR_PATH}); an absolute path there
 * names a file of a mounted Secret and holds nothing secret itself.
 */
final class ConfigMapSecrets {

    /** 2^20 spellings at most; an env name with more underscores than that is not a setting. */
    private static final int MAX_UNDERSCORES = 20;

    /** Settings whose value is a key or the path of its file (docs/push.md, "Providers"). */
    static final Set<String> KEY_OR_PATH = Set.of("notify.push.fcm.service-account", "notify.push.apns.signing-key");

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
                            + " overlay's secretGenerator (a Secret the container reads with envFrom.secretRef, or mounts as a file)");
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
        return p.stringPropertyNames().stream().filter(k -> isSecret(k, p.getProperty(k))).sorted().toList();
    }

    /** The settings key {@code key} may stand for that is a secret with this value, if any. */
    private static List<String> secretKeys(String key, String value) {
        if (key.contains(".")) {
            return isSecret(key, value) ? List.of(key) : List.of();
        }
        String known = KnownSettings.all().key(key);
        if (known != null) {
            return isSecret(known, value) ? List.of(known) : List.of();
        }
        if (privateKey(value)) {
            return List.of(key + ": a private key");
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
            if (isSecret(candidate.toString(), value)) {
                return List.of(candidate.toString());
            }
        }
        return List.of();
    }

    /** {@link Settings#isSecret} or a private key in the value, but not the path a {@link #KEY_OR_PATH} setting may hold. */
    static boolean isSecret(String key, String value) {
        if (KEY_OR_PATH.contains(key) && value.strip().startsWith("/") && !privateKey(value)) {
            return false;
        }
        return Settings.isSecret(key, value) || privateKey(value);
    }

    /** A PEM private key block, or the private key field of a service account JSON. */
    private static boolean privateKey(String value) {
        return value.contains("PRIVATE KEY-----") || value.contains("\"private_key\"");
    }
}
