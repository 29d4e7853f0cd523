package io.notify.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.notify.deploy.ManifestChecker.Profile;
import io.notify.gateway.metrics.GatewayMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Renders ops/k8s/overlays/dev and prod with {@code kubectl kustomize} and checks the invariants of
 * docs/deploy-kubernetes.md ("What the build checks") with {@link ManifestChecker}; a broken
 * fixture overlay (src/test/resources/broken-overlay) shows the checker rejects what it must.
 * kubectl is required: without it the build fails, since checking the manifests is its job.
 */
class ManifestsTest {

    private static final Path MODULE = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
    private static final Path K8S = MODULE.resolve("../../ops/k8s").normalize();
    private static final AdapterRule RULE = AdapterRule.read(K8S.resolve("monitoring/prometheus-adapter-rules.yaml"));
    private static final ManifestChecker CHECKER = new ManifestChecker(RULE.metric());

    @Test
    void devOverlayHoldsEveryInvariant() {
        assertEquals(List.of(), CHECKER.check(Manifests.render(K8S.resolve("overlays/dev")), Profile.DEV));
    }

    @Test
    void prodOverlayHoldsEveryInvariant() {
        assertEquals(List.of(), CHECKER.check(Manifests.render(K8S.resolve("overlays/prod")), Profile.PRODUCTION));
    }

    @Test
    void brokenOverlayIsRejected() {
        List<String> problems = CHECKER.check(Manifests.render(MODULE.resolve("src/test/resources/broken-overlay")), Profile.DEV);
        String all = String.join("\n", problems);
        for (String expected : List.of(
                // drain-window 2m + drain-grace 5s + inbox.produce-timeout 5s = 130s > 50s
                "StatefulSet/notify-gateway: terminationGracePeriodSeconds 50 is not above "
                        + "notify.gateway.drain-window + drain-grace + inbox.produce-timeout = 130s",
                "key NOTIFY_GATEWAY_QUERY_TOKEN holds a secret (notify.gateway.query-token)",
                "key notify.properties holds a secret (notify.kafka.client.sasl.jaas.config)",
                "StatefulSet/notify-fanout-streams container fanout-streams: readinessProbe uses port query (8090), not the management port 8190",
                "Deployment/notify-ingest container ingest: not runAsNonRoot",
                "Deployment/notify-ingest container ingest: no resources.limits.memory",
                "StatefulSet/notify-fanout-streams: notify.fanout.state-dir (/var/lib/notify/elsewhere) is not on a volume",
                "StatefulSet/notify-gateway: NOTIFY_GATEWAY_NODE_ID must come from the pod name",
                // the push sender
                "Deployment/notify-push: terminationGracePeriodSeconds 30 is not above notify.push.rebalance-wait + 10s = 40s",
                "key NOTIFY_PUSH_WEBPUSH_VAPID_PRIVATE_KEY holds a secret (notify.push.webpush.vapid-private-key)",
                "Deployment/notify-push container push: NOTIFY_PUSH_MAX_ATTEMPT is no setting of any Notify service",
                "Deployment/notify-push container push: NOTIFY_KAFKA_CLIENT_SECURITY_PROTOCOL would be a notify.kafka.client.* pass-through",
                "Deployment/notify-push container push: NOTIFY_FANOUT_STANDBY_REPLICAS is notify.fanout.standby-replicas, a setting of"
                        + " notify-fanout-streams",
                "Deployment/notify-push container push: NOTIFY_PUSH_FCM_SERVICE_ACCOUNT names /etc/notify/push/keys/fcm-service-account.json,"
                        + " which no Secret volume of the pod provides",
                "StatefulSet/notify-gateway: NOTIFY_GATEWAY_PUSH_VAPID_PUBLIC_KEY is not the public key of the push sender's VAPID key")) {
            assertTrue(all.contains(expected), "expected a problem containing\n  " + expected + "\nin\n" + all);
        }
        assertEquals(15, problems.size(), all);
    }

    @Test
    void devIsNotProduction() {
        List<String> problems = CHECKER.check(Manifests.render(K8S.resolve("overlays/dev")), Profile.PRODUCTION);
        String all = String.join("\n", problems);
        assertTrue(all.contains("StatefulSet/notify-fanout-streams: notify.fanout.standby-replicas is 0 in production"), all);
        assertTrue(all.contains("key NOTIFY_GATEWAY_QUERY_TOKEN holds a value, not REPLACE-ME"), all);
        assertTrue(all.contains("Deployment/notify-push: 1 instance(s) in production"), all);
        assertTrue(all.contains("key vapid.pem holds a value, not REPLACE-ME"), all);
    }

    /** The HPA's metric exists: the adapter rule's series is a gauge the gateway exports. */
    @Test
    void customMetricRuleMatchesTheGatewayGauge() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new GatewayMetrics(registry);
        assertTrue(registry.scrape().contains("# TYPE " + RULE.series() + " gauge"),
                RULE.series() + " (ops/k8s/monitoring/prometheus-adapter-rules.yaml) is not a gauge of GatewayMetrics");
    }

    /** The one custom-metrics rule of ops/k8s/monitoring/prometheus-adapter-rules.yaml: the series it reads, the metric it serves. */
    record AdapterRule(String series, String metric) {

        private static final Pattern SERIES = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)\\{");

        static AdapterRule read(Path file) {
            try {
                JsonNode rule = Manifests.parse(Files.readString(file)).get(0).path("rules").path("custom").path(0);
                Matcher m = SERIES.matcher(rule.path("seriesQuery").asText());
                if (!m.find() || rule.path("name").path("as").asText().isEmpty()) {
                    throw new IllegalStateException(file + ": expected rules.custom[0] with seriesQuery 'metric{...}' and name.as");
                }
                return new AdapterRule(m.group(1), rule.path("name").path("as").asText());
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + file, e);
            }
        }
    }
}
