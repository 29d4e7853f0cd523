package io.notify.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.common.config.ConfigException;
import io.notify.deploy.PodEnv.MountedFile;
import io.notify.fanout.FanoutConfig;
import io.notify.gateway.config.GatewayConfig;
import io.notify.push.PushConfig;
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

    /** What an overlay is for: production adds standby replicas, a fanout PDB, two push senders and placeholder-only secrets. */
    enum Profile { DEV, PRODUCTION }

    List<String> check(Manifests m, Profile profile) {
        List<String> problems = new ArrayList<>(ConfigMapSecrets.check(m));
        Map<String, ServiceConfig> configs = new HashMap<>();
        boolean vapidStandIn = false;
        for (String name : ServiceConfig.WORKLOADS.stream().sorted().toList()) {
            boolean stateless = name.equals(ServiceConfig.INGEST) || name.equals(ServiceConfig.PUSH);
            String kind = stateless ? "Deployment" : "StatefulSet";
            Optional<JsonNode> workload = m.find(kind, name);
            if (workload.isEmpty()) {
                problems.add(kind + "/" + name + " is missing: " + kind + " is what ops/k8s/base declares for it"
                        + " (a gateway's node id is its pod name; fanout-streams keeps state per instance; ingest and the"
                        + " push sender are stateless)");
                continue;
            }
            JsonNode pod = workload.get().path("spec").path("template");
            for (JsonNode container : pod.path("spec").path("containers")) {
                String where = Manifests.id(workload.get()) + " container " + container.path("name").asText();
                Map<String, String> env = PodEnv.resolve(m, workload.get(), container);
                Map<String, MountedFile> files = PodEnv.files(m, workload.get(), container);
                problems.addAll(Workloads.variables(where, name, env));
                Map<String, String> unmounted = name.equals(ServiceConfig.PUSH) ? ServiceConfig.unmountedPushFiles(env, files) : Map.of();
                unmounted.forEach((var, path) -> problems.add(where + ": " + var + " names " + path + ", which no Secret"
                        + " volume of the pod provides: add the file to the Secret mounted there (notify-push-keys), or fix the path"));
                // the rest is checked as if those were not set (the service would stop at reading them)
                env.keySet().removeAll(unmounted.keySet());
                ServiceConfig config = null;
                try {
                    config = ServiceConfig.load(name, env, files);
                    configs.put(name, config);
                } catch (ConfigException e) {
                    problems.add(where + ": the service would refuse its configuration: " + e.getMessage()
                            + "; fix the value in its ConfigMap or Secret");
                }
                if (name.equals(ServiceConfig.PUSH)) {
                    String vapidFile = env.get("NOTIFY_PUSH_WEBPUSH_VAPID_KEY_FILE");
                    MountedFile vapid = vapidFile == null ? null : files.get(vapidFile.strip());
                    vapidStandIn = vapid != null && vapid.placeholder();
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
        problems.addAll(push(m, profile, (PushConfig) config(configs, ServiceConfig.PUSH),
                (GatewayConfig) config(configs, ServiceConfig.GATEWAY), vapidStandIn));
        if (profile == Profile.PRODUCTION) {
            problems.addAll(placeholderSecrets(m));
        }
        return problems;
    }

    private static Object config(Map<String, ServiceConfig> configs, String name) {
        return Optional.ofNullable(configs.get(name)).map(ServiceConfig::config).orElse(null);
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

    /**
     * The push sender: a PodDisruptionBudget, two or more instances in production, at least one
     * provider on, and the gateway handing browsers the public half of the sender's VAPID key (not
     * compared while either is a production placeholder).
     */
    private static List<String> push(Manifests m, Profile profile, PushConfig config, GatewayConfig gateway, boolean vapidStandIn) {
        List<String> problems = new ArrayList<>();
        m.find("Deployment", ServiceConfig.PUSH).ifPresent(deployment -> {
            String id = Manifests.id(deployment);
            problems.addAll(Workloads.disruptionBudget(m, deployment));
            problems.addAll(Workloads.notScaledTwice(m, deployment));
            int replicas = deployment.path("spec").path("replicas").asInt(1);
            if (profile == Profile.PRODUCTION && replicas < 2 && Workloads.autoscalers(m, deployment).isEmpty()) {
                problems.add(id + ": " + replicas + " instance(s) in production: set spec.replicas to 2 or more, so that"
                        + " another sender takes a lost one's notify.fallback partitions within notify.push.session-timeout");
            }
            if (config == null) {
                return;
            }
            if (config.webpush() == null && config.fcm() == null && config.apns() == null) {
                problems.add(id + ": no push provider is on, so every push would be refused (no_provider): set"
                        + " NOTIFY_PUSH_WEBPUSH_SUBJECT and a VAPID key, NOTIFY_PUSH_FCM_SERVICE_ACCOUNT, or NOTIFY_PUSH_APNS_TEAM_ID"
                        + " with its key (docs/push.md, \"Providers\")");
            }
            if (config.webpush() == null || gateway == null) {
                return;
            }
            String handed = gateway.inbox().pushVapidPublicKey();
            String own = config.webpush().keys().publicKeyBase64Url();
            if (handed == null) {
                problems.add("StatefulSet/" + ServiceConfig.GATEWAY + ": NOTIFY_GATEWAY_PUSH_VAPID_PUBLIC_KEY is not set although"
                        + " the push sender has Web Push on: browsers cannot subscribe (GET /v1/push/config has no webpush);"
                        + " set it in ConfigMap notify-gateway to the public key of the sender's VAPID key");
            } else if (!handed.contains(PodEnv.PLACEHOLDER) && !vapidStandIn && !handed.equals(own)) {
                problems.add("StatefulSet/" + ServiceConfig.GATEWAY + ": NOTIFY_GATEWAY_PUSH_VAPID_PUBLIC_KEY is not the public"
                        + " key of the push sender's VAPID key (" + own + "): browsers would subscribe with a key the push"
                        + " services then refuse the sender's pushes for (403, outcome refused); set it to that key");
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
