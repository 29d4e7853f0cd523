package io.notify.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The environment a container of a rendered workload would start with, resolved as the kubelet
 * does: {@code envFrom} sources in order, then {@code env} entries (literal values with
 * {@code $(VAR)} expanded against what is defined before them, field references, ConfigMap and
 * Secret keys). The pod is the workload's first: {@code <name>-0} in the workload's namespace.
 *
 * <p>A Secret value that is the production placeholder {@value #PLACEHOLDER} is the operator's to
 * provide; in its place a value of the right shape stands in (a {@code name:key} list for API
 * keys, a long token otherwise), so that every other setting can still be loaded and checked.
 */
final class PodEnv {

    /** What a committed production secret holds until the operator replaces it. */
    static final String PLACEHOLDER = "REPLACE-ME";
    private static final String STAND_IN = "stand-in-for-a-placeholder-secret-0123456789";
    private static final Pattern REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    private PodEnv() {
    }

    static String podName(JsonNode workload) {
        return Manifests.name(workload) + "-0";
    }

    static String namespace(JsonNode object) {
        String ns = object.path("metadata").path("namespace").asText();
        return ns.isEmpty() ? "default" : ns;
    }

    static Map<String, String> resolve(Manifests manifests, JsonNode workload, JsonNode container) {
        Map<String, String> env = new LinkedHashMap<>();
        for (JsonNode source : container.path("envFrom")) {
            if (source.has("configMapRef")) {
                env.putAll(data(manifests, "ConfigMap", source.path("configMapRef").path("name").asText()));
            } else if (source.has("secretRef")) {
                env.putAll(data(manifests, "Secret", source.path("secretRef").path("name").asText()));
            }
        }
        for (JsonNode var : container.path("env")) {
            String name = var.path("name").asText();
            JsonNode from = var.path("valueFrom");
            if (var.has("value")) {
                env.put(name, expand(var.path("value").asText(), env));
            } else if (from.has("fieldRef")) {
                String path = from.path("fieldRef").path("fieldPath").asText();
                env.put(name, switch (path) {
                    case "metadata.name" -> podName(workload);
                    case "metadata.namespace" -> namespace(workload);
                    default -> "<" + path + ">";
                });
            } else if (from.has("configMapKeyRef")) {
                JsonNode ref = from.path("configMapKeyRef");
                env.put(name, data(manifests, "ConfigMap", ref.path("name").asText()).get(ref.path("key").asText()));
            } else if (from.has("secretKeyRef")) {
                JsonNode ref = from.path("secretKeyRef");
                env.put(name, data(manifests, "Secret", ref.path("name").asText()).get(ref.path("key").asText()));
            }
        }
        env.values().removeIf(v -> v == null);
        return env;
    }

    /** A ConfigMap's or Secret's entries, decoded, placeholders stood in for; empty when there is no such object. */
    static Map<String, String> data(Manifests manifests, String kind, String name) {
        Map<String, String> out = new LinkedHashMap<>();
        manifests.find(kind, name).ifPresent(object -> {
            if (kind.equals("Secret")) {
                decoded(object).forEach((key, value) -> out.put(key, standIn(key, value)));
            } else {
                object.path("data").properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
            }
        });
        return out;
    }

    /** A Secret's entries as the container sees them: {@code data} base64-decoded, then {@code stringData}. */
    static Map<String, String> decoded(JsonNode secret) {
        Map<String, String> out = new LinkedHashMap<>();
        secret.path("data").properties().forEach(e -> out.put(e.getKey(),
                new String(Base64.getDecoder().decode(e.getValue().asText()), StandardCharsets.UTF_8)));
        secret.path("stringData").properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private static String standIn(String key, String value) {
        if (!PLACEHOLDER.equals(value.trim())) {
            return value;
        }
        return key.endsWith("_API_KEYS") ? "placeholder:" + STAND_IN : STAND_IN;
    }

    /** {@code $(VAR)} replaced by VAR's value when defined, left as written otherwise (the kubelet's rule). */
    private static String expand(String value, Map<String, String> env) {
        Matcher m = REFERENCE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = env.get(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(v == null ? m.group() : v));
        }
        m.appendTail(out);
        return out.toString();
    }
}
