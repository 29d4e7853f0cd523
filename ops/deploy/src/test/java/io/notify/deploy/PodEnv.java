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
 * keys, a 10-character id for an APNs team or key id, a long token otherwise), so that every other
 * setting can still be loaded and checked.
 *
 * <p>{@link #files} lists the files the container's Secret and ConfigMap volumes put where (the push
 * sender's keys), as they are: a placeholder file is {@link ServiceConfig}'s to stand in for, since
 * only the setting that reads it knows its shape.
 */
final class PodEnv {

    /** What a committed production secret holds until the operator replaces it. */
    static final String PLACEHOLDER = "REPLACE-ME";
    private static final String STAND_IN = "stand-in-for-a-placeholder-secret-0123456789";
    /** An Apple developer team or key id: 10 of [A-Z0-9]. */
    private static final String APPLE_ID_STAND_IN = "STANDIN000";
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

    /** A Secret's entries as the container sees them: {@code data} base64-decoded, then {@code stringData}. Long values are printed in lines. */
    static Map<String, String> decoded(JsonNode secret) {
        Map<String, String> out = new LinkedHashMap<>();
        secret.path("data").properties().forEach(e -> out.put(e.getKey(),
                new String(Base64.getMimeDecoder().decode(e.getValue().asText()), StandardCharsets.UTF_8)));
        secret.path("stringData").properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private static String standIn(String key, String value) {
        if (!PLACEHOLDER.equals(value.trim())) {
            return value;
        }
        if (key.endsWith("_API_KEYS")) {
            return "placeholder:" + STAND_IN;
        }
        return key.endsWith("_TEAM_ID") || key.endsWith("_KEY_ID") ? APPLE_ID_STAND_IN : STAND_IN;
    }

    /** A file a container sees through a Secret or ConfigMap volume: {@code Kind/name} and key it comes from, its content. */
    record MountedFile(String source, String key, String content) {

        boolean placeholder() {
            return PLACEHOLDER.equals(content.trim());
        }
    }

    /**
     * The files the container's Secret and ConfigMap volumes provide, by path in the container:
     * every key of the object under the mount path, or only the volume's {@code items} at their
     * {@code path}; a mount with {@code subPath} is that one file at the mount path.
     */
    static Map<String, MountedFile> files(Manifests manifests, JsonNode workload, JsonNode container) {
        Map<String, MountedFile> out = new LinkedHashMap<>();
        JsonNode volumes = workload.path("spec").path("template").path("spec").path("volumes");
        for (JsonNode mount : container.path("volumeMounts")) {
            JsonNode volume = Workloads.stream(volumes).filter(v -> v.path("name").asText().equals(mount.path("name").asText()))
                    .findFirst().orElse(null);
            if (volume == null) {
                continue;
            }
            String kind = volume.has("secret") ? "Secret" : volume.has("configMap") ? "ConfigMap" : null;
            if (kind == null) {
                continue;
            }
            JsonNode source = kind.equals("Secret") ? volume.path("secret") : volume.path("configMap");
            String name = kind.equals("Secret") ? source.path("secretName").asText() : source.path("name").asText();
            Map<String, String> data = new LinkedHashMap<>();
            manifests.find(kind, name).ifPresent(object -> {
                if (kind.equals("Secret")) {
                    data.putAll(decoded(object));
                } else {
                    object.path("data").properties().forEach(e -> data.put(e.getKey(), e.getValue().asText()));
                }
            });
            Map<String, String> paths = new LinkedHashMap<>(); // path under the mount → key
            if (source.path("items").isEmpty()) {
                data.keySet().forEach(k -> paths.put(k, k));
            } else {
                source.path("items").forEach(item -> paths.put(item.path("path").asText(), item.path("key").asText()));
            }
            String mountPath = mount.path("mountPath").asText();
            String subPath = mount.path("subPath").asText();
            paths.forEach((path, key) -> {
                if (data.containsKey(key) && (subPath.isEmpty() || subPath.equals(path))) {
                    String at = subPath.isEmpty() ? (mountPath.endsWith("/") ? mountPath : mountPath + "/") + path : mountPath;
                    out.put(at, new MountedFile(kind + "/" + name, key, data.get(key)));
                }
            });
        }
        return out;
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
