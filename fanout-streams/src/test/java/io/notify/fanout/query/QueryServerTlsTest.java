package io.notify.fanout.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.notify.common.auth.BearerKeys;
import io.notify.common.auth.ServiceToken;
import io.notify.common.tls.ServerTls;
import io.notify.common.tls.TlsSettings;
import io.notify.devstack.TestCertificate;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The query API with {@code notify.fanout.tls.*}: HTTPS on both listeners, the service token still required, forwards over HTTPS. */
class QueryServerTlsTest {

    private static final String TOKEN = "query-token-0123456789";
    private static final Duration WAIT = Duration.ofSeconds(5);

    @Test
    void theQueryApiAnswersOverHttpsWithItsServiceTokenAndForwardsOverHttps(@TempDir Path dir) throws Exception {
        TestCertificate cert = TestCertificate.selfSigned(dir);
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (ServerTls tls = ServerTls.startOrNull(Optional.of(new TlsSettings(cert.certificate(), cert.privateKey(),
                Duration.ofMinutes(1), "notify.fanout")), meters);
             QueryServer server = new QueryServer("127.0.0.1", 0, "127.0.0.1", "127.0.0.1", 0,
                     BearerKeys.numbered(List.of(new ServiceToken(TOKEN))), meters, tls)) {
            HttpClient https = HttpClient.newBuilder().sslContext(cert.trustingContext()).connectTimeout(WAIT).build();
            URI head = URI.create("https://127.0.0.1:" + server.port() + "/v1/streams/u:alice");
            assertEquals(401, https.send(HttpRequest.newBuilder(head).timeout(WAIT).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode(), "the token is still required");
            // past the gate, a server not attached to a running app answers 503: the request reached the handlers
            assertEquals(503, https.send(HttpRequest.newBuilder(head).header("Authorization", "Bearer " + TOKEN).timeout(WAIT).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode());
            HttpResponse<String> scrape = https.send(HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + server.managementPort() + "/metrics")).timeout(WAIT).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, scrape.statusCode());
            assertTrue(scrape.body().contains("notify_tls_reloads_total"), "TLS meters on the management listener");
            HttpClient plain = HttpClient.newBuilder().connectTimeout(WAIT).build();
            assertThrows(IOException.class, () -> plain.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/healthz")).timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString()));

            QueryForwarder forwarder = new QueryForwarder(WAIT, tls.peerTrust());
            QueryForwarder.Forwarded forwarded = forwarder.get(new HostInfo("127.0.0.1", server.port()), "/v1/streams/u:alice",
                    "Bearer " + TOKEN).get(10, TimeUnit.SECONDS);
            assertEquals(503, forwarded.status(), "an instance reaches its peer over HTTPS, trusting the shared certificate");
        }
    }
}
