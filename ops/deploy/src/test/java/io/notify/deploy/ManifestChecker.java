package io.notify.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.common.config.ConfigException;
import io.notify.fanout.FanoutConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The invariants of a rendered Notify deployment (docs/deploy-kubernetes.md, "What the build
 * checks"). {@link #check} reports every broken one, each message naming the object and the fix;
 * an empty list means the manifests hold them all.
 *
 * @param customMetric the Pods metric prometheus-adapter serves for the gateway HPA
 *                     (ops/k8s/monitoring/prometheus-adapter-rules.yaml)
 */
record ManifestChecker(String customMetric) {

    /** What an overlay is for: production adds standby replicas, a fanout PDB and placeholder-only secrets. */
    enum Profile { DEV, PRODUCTION }

    List<String> check(Manifests m, Profile profile) {
        List<String> problems = new ArrayList<>(ConfigMapSecrets.check(m));
        Map<String, ServiceConfig> configs = new HashMap<>();
        for (String name : ServiceConfig.WORKLOADS) {
            String kind = name.equals(ServiceConfig.INGEST) ? "Deployment" : "StatefulSet";
            Optional<JsonNode> workload = m.find(kind, name);
            if (workload.isEmpty()) {
                problems.add(kind + "/" + name + " is missing: " + kind + " is what ops/k8s/base declares for it"
                        + " (a gateway's node id is its pod name; fanout-streams keeps state per instance; ingest is stateless)");
                continue;
            }
            JsonNode pod = workload.get().path("spec").path("template");
            for (JsonNode container : pod.path("spec").path("containers")) {
                String where = Manifests.id(workload.get()) + " container " + container.path("name").asText();
                ServiceConfig config = null;
                try {
                    config = ServiceConfig.load(name, PodEnv.resolve(m, workload.get(), container));
                    configs.put(name, config);
                } catch (ConfigException e) {
                    problems.add(where + ": the service would refuse its configuration: " + e.getMessage()
                            + "; fix the value in its ConfigMap or Secret");
                }
                problems.addAll(Workloads.container(where, pod.path("spec"), container, config));
            }
            if (configs.containsKey(name)) {
                problems.addAll(Workloads.grace(workload.get(), configs.get(name)));
            }
        }
        problems.addAll(gateway(m));
        problems.addAll(fanout(m, profile, (FanoutConfig) Optional.ofNullable(configs.get(ServiceConfig.FANOUT))
                .map(ServiceConfig::config).orElse(null)));
        problems.addAll(Workloads.cpuAutoscaled(m, "Deployment", ServiceConfig.INGEST));
        if (profile == Profile.PRODUCTION) {
            problems.addAll(placeholderSecrets(m));
        }
        return problems;
    }

    private List<String> gateway(Manifests m) {
        List<String> problems = new ArrayList<>();
        m.find("StatefulSet", ServiceConfig.GATEWAY).ifPresent(sts -> {
            JsonNode nodeId = Workloads.envVar(sts, "NOTIFY_GATEWAY_NODE_ID");
            if (!"metadata.name".equals(nodeId.path("valueFrom").path("fieldRef").path("fieldPath").asText())) {
                problems.add(Manifests.id(sts) + ": NOTIFY_GATEWAY_NODE_ID must come from the pod name"
                        + " (valueFrom.fieldRef.fieldPath: metadata.name), so a node keeps its id, node topic and registry"
                        + " members across restarts");
            }
            problems.addAll(Workloads.headlessService(m, sts));
            problems.addAll(Workloads.disruptionBudget(m, sts));
            problems.addAll(Workloads.notScaledTwice(m, sts));
            List<JsonNode> hpas = Workloads.autoscalers(m, sts);
            boolean onConnections = hpas.stream().flatMap(h -> Workloads.stream(h.path("spec").path("metrics")))
                    .anyMatch(metric -> "Pods".equals(metric.path("type").asText())
                            && customMetric.equals(metric.path("pods").path("metric").path("name").asText()));
            if (!onConnections) {
                problems.add(Manifests.id(sts) + ": no HorizontalPodAutoscaler scales it on the Pods metric " + customMetric
                        + " (connections per pod, served by prometheus-adapter: ops/k8s/monitoring/prometheus-adapter-rules.yaml)");
            }
        });
        return problems;
    }

    private static List<String> fanout(Manifests m, Profile profile, FanoutConfig config) {
        List<String> problems = new ArrayList<>();
        m.find("StatefulSet", ServiceConfig.FANOUT).ifPresent(sts -> {
            String id = Manifests.id(sts);
            problems.addAll(Workloads.headlessService(m, sts));
            if (profile == Profile.PRODUCTION) {
                problems.addAll(Workloads.disruptionBudget(m, sts));
            }
            if (config == null) {
                return;
            }
            if (!Workloads.mountsClaim(sts, config.stateDir().toString())) {
                problems.add(id + ": notify.fanout.state-dir (" + config.stateDir() + ") is not on a volume of its"
                        + " volumeClaimTemplates: mount one there, or the state is restored from the changelogs at every restart");
            }
            String expectedHost = PodEnv.podName(sts) + "." + sts.path("spec").path("serviceName").asText() + "."
                    + PodEnv.namespace(sts) + ".svc";
            if (!expectedHost.equals(config.queryAdvertisedHost())) {
                problems.add(id + ": notify.fanout.query.advertised-host resolves to '" + config.queryAdvertisedHost()
                        + "', not the pod's stable name '" + expectedHost + "': set NOTIFY_FANOUT_QUERY_ADVERTISED_HOST to"
                        + " $(POD_NAME).<serviceName>.$(POD_NAMESPACE).svc, or other instances cannot forward queries to it");
            }
            int replicas = sts.path("spec").path("replicas").asInt(1);
            if (profile == Profile.PRODUCTION && config.standbyReplicas() < 1) {
                problems.add(id + ": notify.fanout.standby-replicas is " + config.standbyReplicas() + " in production:"
                        + " set NOTIFY_FANOUT_STANDBY_REPLICAS to 1 or more, so a lost instance's tasks move to a warm copy");
            }
            if (config.standbyReplicas() >= replicas) {
                problems.add(id + ": " + config.standbyReplicas() + " standby replica(s) need more than " + replicas
                        + " instance(s): raise spec.replicas or lower NOTIFY_FANOUT_STANDBY_REPLICAS");
            }
        });
        return problems;
    }

    /** Production secrets are the operator's: a committed one holds only the placeholder. */
    private static List<String> placeholderSecrets(Manifests m) {
        List<String> problems = new ArrayList<>();
        for (JsonNode secret : m.ofKind("Secret")) {
            PodEnv.decoded(secret).forEach((key, value) -> {
                if (!PodEnv.PLACEHOLDER.equals(value.trim())) {
                    problems.add(Manifests.id(secret) + " key " + key + " holds a value, not " + PodEnv.PLACEHOLDER
                            + ": production secrets are never committed; put " + PodEnv.PLACEHOLDER + " back in the file and"
                            + " provide the real value at deploy time (docs/deploy-kubernetes.md)");
                }
            });
        }
        return problems;
    }

    static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
