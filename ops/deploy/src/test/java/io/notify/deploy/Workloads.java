package io.notify.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/** The checks every Notify workload and container must pass, and how its companions (Services, PDBs, HPAs) are found. */
final class Workloads {

    private Workloads() {
    }

    /** Non-root, resources, and both probes on the management port the service really binds. */
    static List<String> container(String where, JsonNode podSpec, JsonNode container, ServiceConfig config) {
        List<String> problems = new ArrayList<>();
        JsonNode own = container.path("securityContext").path("runAsNonRoot");
        boolean nonRoot = own.isMissingNode() ? podSpec.path("securityContext").path("runAsNonRoot").asBoolean(false) : own.asBoolean(false);
        if (!nonRoot) {
            problems.add(where + ": not runAsNonRoot: set securityContext.runAsNonRoot: true (the images run as uid 65532)");
        }
        JsonNode resources = container.path("resources");
        for (String field : List.of("requests/cpu", "requests/memory", "limits/cpu", "limits/memory")) {
            String[] parts = field.split("/");
            if (resources.path(parts[0]).path(parts[1]).asText().isEmpty()) {
                problems.add(where + ": no resources." + parts[0] + "." + parts[1] + ": set it (the heap is a share of the"
                        + " memory limit; the CPU HPA needs requests)");
            }
        }
        problems.addAll(probe(where, container, "readinessProbe", "/readyz", config));
        problems.addAll(probe(where, container, "livenessProbe", "/healthz", config));
        return problems;
    }

    private static List<String> probe(String where, JsonNode container, String probe, String path, ServiceConfig config) {
        JsonNode get = container.path(probe).path("httpGet");
        if (get.isMissingNode()) {
            return List.of(where + ": no " + probe + ".httpGet: probe " + path + " on the management port");
        }
        List<String> problems = new ArrayList<>();
        if (!path.equals(get.path("path").asText())) {
            problems.add(where + ": " + probe + " asks '" + get.path("path").asText() + "': use " + path);
        }
        JsonNode port = get.path("port");
        Integer number = port.isInt() ? Integer.valueOf(port.asInt()) : null;
        for (JsonNode declared : container.path("ports")) {
            if (declared.path("name").asText().equals(port.asText())) {
                number = declared.path("containerPort").asInt();
            }
        }
        if (config != null && (number == null || number != config.managementPort())) {
            problems.add(where + ": " + probe + " uses port " + port.asText() + (number == null ? " (no such port)" : " (" + number + ")")
                    + ", not the management port " + config.managementPort() + ": point it at the port named management");
        }
        return problems;
    }

    /** The settings namespace of each workload's own keys: another's in a container is a setting in the wrong place. */
    private static final Map<String, String> OWN_KEYS = Map.of(
            ServiceConfig.GATEWAY, "notify.gateway.",
            ServiceConfig.FANOUT, "notify.fanout.",
            ServiceConfig.INGEST, "notify.ingest.",
            ServiceConfig.PUSH, "notify.push.");

    /**
     * Every {@code NOTIFY_*} variable of the container is a setting this service reads: a shared one
     * or one of its own namespace ({@link KnownSettings}). A misspelt name, another service's setting
     * or a pass-through prefix (never read from the environment) would be ignored without a word.
     */
    static List<String> variables(String where, String workload, Map<String, String> env) {
        List<String> problems = new ArrayList<>();
        KnownSettings known = KnownSettings.all();
        for (String var : env.keySet().stream().sorted().toList()) {
            if (!var.startsWith("NOTIFY_") || KnownSettings.NOT_SETTINGS.contains(var)) {
                continue;
            }
            String key = known.key(var);
            if (key == null) {
                String prefix = known.prefix(var);
                problems.add(where + ": " + var + (prefix != null
                        ? " would be a " + prefix + " pass-through property, which is never read from the environment: put it"
                                + " in a properties file given with --config (docs/deploy-kubernetes.md, \"Configuration\")"
                        : " is no setting of any Notify service (docs/config/): a misspelt name is ignored, fix or remove it"));
                continue;
            }
            OWN_KEYS.forEach((other, namespace) -> {
                if (!other.equals(workload) && key.startsWith(namespace)) {
                    problems.add(where + ": " + var + " is " + key + ", a setting of " + other + ", which this service"
                            + " ignores: move it to " + other + "'s ConfigMap or Secret");
                }
            });
        }
        return problems;
    }

    /** terminationGracePeriodSeconds above what the service may take to stop after SIGTERM. */
    static List<String> grace(JsonNode workload, ServiceConfig config) {
        JsonNode given = workload.path("spec").path("template").path("spec").path("terminationGracePeriodSeconds");
        Duration grace = Duration.ofSeconds(given.asLong(30)); // Kubernetes' default
        if (grace.compareTo(config.stopBound()) > 0) {
            return List.of();
        }
        return List.of(Manifests.id(workload) + ": terminationGracePeriodSeconds " + grace.toSeconds() + " is not above "
                + config.stopRule() + " = " + ManifestChecker.seconds(config.stopBound()) + ": Kubernetes would kill the"
                + " service before it stops; raise the grace period or lower those settings");
    }

    static JsonNode envVar(JsonNode workload, String name) {
        for (JsonNode container : workload.path("spec").path("template").path("spec").path("containers")) {
            for (JsonNode var : container.path("env")) {
                if (name.equals(var.path("name").asText())) {
                    return var;
                }
            }
        }
        return MissingNode.getInstance();
    }

    static List<String> headlessService(Manifests m, JsonNode sts) {
        String serviceName = sts.path("spec").path("serviceName").asText();
        boolean headless = m.find("Service", serviceName)
                .filter(s -> "None".equals(s.path("spec").path("clusterIP").asText()))
                .filter(s -> selects(s.path("spec").path("selector"), sts))
                .isPresent();
        return headless ? List.of() : List.of(Manifests.id(sts) + ": its serviceName '" + serviceName + "' is not a headless"
                + " Service (clusterIP: None) selecting its pods: add one, it gives each pod its stable DNS name");
    }

    static List<String> disruptionBudget(Manifests m, JsonNode workload) {
        boolean covered = m.ofKind("PodDisruptionBudget").stream()
                .anyMatch(pdb -> selects(pdb.path("spec").path("selector").path("matchLabels"), workload));
        return covered ? List.of() : List.of(Manifests.id(workload) + ": no PodDisruptionBudget selects its pods: add one"
                + " with maxUnavailable: 1, so voluntary disruptions take one pod at a time");
    }

    /** The HPAs whose scaleTargetRef is {@code workload}. */
    static List<JsonNode> autoscalers(Manifests m, JsonNode workload) {
        return m.ofKind("HorizontalPodAutoscaler").stream()
                .filter(h -> workload.path("kind").asText().equals(h.path("spec").path("scaleTargetRef").path("kind").asText()))
                .filter(h -> Manifests.name(workload).equals(h.path("spec").path("scaleTargetRef").path("name").asText()))
                .toList();
    }

    /** An HPA owns the replica count of what it scales: a spec.replicas there is reset by every apply. */
    static List<String> notScaledTwice(Manifests m, JsonNode workload) {
        if (autoscalers(m, workload).isEmpty() || !workload.path("spec").has("replicas")) {
            return List.of();
        }
        return List.of(Manifests.id(workload) + ": sets spec.replicas although a HorizontalPodAutoscaler scales it: remove"
                + " it (each apply would reset the HPA's count; for the gateway that drains nodes) and set the HPA's minReplicas");
    }

    static List<String> cpuAutoscaled(Manifests m, String kind, String name) {
        return m.find(kind, name).map(workload -> {
            List<String> problems = new ArrayList<>(notScaledTwice(m, workload));
            boolean onCpu = autoscalers(m, workload).stream().flatMap(h -> stream(h.path("spec").path("metrics")))
                    .anyMatch(metric -> "Resource".equals(metric.path("type").asText())
                            && "cpu".equals(metric.path("resource").path("name").asText()));
            if (!onCpu) {
                problems.add(Manifests.id(workload) + ": no HorizontalPodAutoscaler scales it on CPU: add one (autoscaling/v2,"
                        + " type Resource, name cpu)");
            }
            return problems;
        }).orElse(List.of());
    }

    /** A volume of the StatefulSet's volumeClaimTemplates is mounted at {@code path} in one of its containers. */
    static boolean mountsClaim(JsonNode sts, String path) {
        List<String> claims = stream(sts.path("spec").path("volumeClaimTemplates"))
                .map(Manifests::name).toList();
        return stream(sts.path("spec").path("template").path("spec").path("containers"))
                .flatMap(c -> stream(c.path("volumeMounts")))
                .anyMatch(mount -> claims.contains(mount.path("name").asText())
                        && trimSlash(mount.path("mountPath").asText()).equals(trimSlash(path)));
    }

    private static String trimSlash(String path) {
        return path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
    }

    /** Every label of {@code selector} is on the workload's pods (and there is at least one). */
    static boolean selects(JsonNode selector, JsonNode workload) {
        JsonNode labels = workload.path("spec").path("template").path("metadata").path("labels");
        if (selector.isEmpty()) {
            return false;
        }
        for (Map.Entry<String, JsonNode> e : selector.properties()) {
            if (!e.getValue().asText().equals(labels.path(e.getKey()).asText(null))) {
                return false;
            }
        }
        return true;
    }

    static Stream<JsonNode> stream(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false);
    }
}
