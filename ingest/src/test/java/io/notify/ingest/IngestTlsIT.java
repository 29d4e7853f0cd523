package io.notify.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.config.Settings;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.devstack.TestCertificate;
import io.notify.schemas.topic.TopicCatalog;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Ingest with {@code notify.ingest.tls.*}: events accepted over HTTPS, the management listener HTTPS too, a rotated certificate presented. */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(120)
class IngestTlsIT {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void eventsAreAcceptedOverHttpsAndARotatedCertificateIsPresented(Infra infra, @TempDir Path dir) throws Exception {
        infra.createTopic(TopicCatalog.of(infra.prefix()).events().name(), 1);
        TestCertificate cert = TestCertificate.selfSigned(dir.resolve("original"));
        Path certFile = dir.resolve("cert.pem");
        Path keyFile = dir.resolve("key.pem");
        cert.installAt(certFile, keyFile);
        try (IngestServer server = new IngestServer(IngestConfig.load(Settings.of(Map.of(
                "notify.ingest.port", "0",
                "notify.ingest.host", "127.0.0.1",
                "notify.kafka.bootstrap-servers", infra.bootstrapServers(),
                "notify.topic-prefix", infra.prefix(),
                "notify.ingest.api-keys", "orders:it-orders-key-0123456789",
                "notify.ingest.tls.cert-file", certFile.toString(),
                "notify.ingest.tls.key-file", keyFile.toString(),
                "notify.ingest.tls.reload-interval", "100ms")))).start()) {
            HttpClient https = HttpClient.newBuilder().sslContext(cert.trustingContext()).connectTimeout(WAIT).build();
            String id = "ev-" + UUID.randomUUID();
            HttpResponse<String> accepted = https.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/v1/events"))
                    .header("Authorization", "Bearer it-orders-key-0123456789").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"id\":\"" + id + "\",\"type\":\"order.shipped\","
                            + "\"to\":{\"users\":[\"u1\"]},\"data\":{}}")).timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(202, accepted.statusCode(), accepted.body());
            assertTrue(accepted.body().contains(id), accepted.body());

            URI metrics = URI.create("https://127.0.0.1:" + server.managementPort() + "/metrics");
            HttpResponse<String> scrape = https.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, scrape.statusCode());
            assertTrue(scrape.body().contains("notify_tls_certificate_expiry_seconds"));
            HttpClient plain = HttpClient.newBuilder().connectTimeout(WAIT).build();
            assertThrows(IOException.class, () -> plain.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/healthz")).timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString()));

            TestCertificate rotated = TestCertificate.selfSigned(dir.resolve("rotated"), "rotated");
            rotated.installAt(certFile, keyFile);
            Await.until("ingest presents the rotated certificate", WAIT,
                    () -> rotated.x509().equals(TestCertificate.presented("127.0.0.1", server.port())));
            assertEquals(rotated.x509(), TestCertificate.presented("127.0.0.1", server.managementPort()));
            HttpClient trustsRotated = HttpClient.newBuilder().sslContext(rotated.trustingContext()).connectTimeout(WAIT).build();
            assertEquals(200, trustsRotated.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/healthz"))
                    .build(), HttpResponse.BodyHandlers.ofString()).statusCode());
        }
    }
}
