package io.notify.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.common.tls.ServerTls;
import io.notify.common.tls.TlsSettings;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.devstack.TestCertificate;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.GatewayHarness;
import io.notify.gateway.support.QueryApiStub;
import io.notify.gateway.support.SseClient;
import io.notify.gateway.support.TestConfig;
import io.notify.gateway.support.Tokens;
import io.notify.gateway.support.WsClient;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.StreamId;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway node with {@code notify.gateway.tls.*}: WSS (Notify's own framing on the TLS socket
 * Undertow hands over), SSE over HTTPS and the management listener over HTTPS, resume from a query
 * API over HTTPS trusted by {@code notify.gateway.query-ca-file}, and a rotated certificate presented
 * by new handshakes while an open WSS connection goes on.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(120)
class GatewayTlsIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String E = "ep1";

    @TempDir
    static Path dir;
    /** The certificate the node starts with; its files are copied to {@link #certFile} and {@link #keyFile}. */
    private static TestCertificate cert;
    private static Path certFile;
    private static Path keyFile;
    private static HttpClient https;
    private static GatewayHarness gateway;
    private static Tokens tokens;
    private static ServerTls stubTls;

    @BeforeAll
    static void start(Infra infra) throws Exception {
        cert = TestCertificate.selfSigned(dir.resolve("original"));
        certFile = dir.resolve("cert.pem");
        keyFile = dir.resolve("key.pem");
        cert.installAt(certFile, keyFile);
        TestCertificate queryCert = TestCertificate.selfSigned(dir.resolve("query"), "query-api");
        stubTls = ServerTls.startOrNull(Optional.of(new TlsSettings(queryCert.certificate(), queryCert.privateKey(),
                Duration.ofMinutes(1), "stub")), new SimpleMeterRegistry());
        QueryApiStub stub = new QueryApiStub(TestConfig.QUERY_TOKEN, stubTls.context());
        gateway = new GatewayHarness(infra, "gw-tls", Map.of(
                "notify.gateway.tls.cert-file", certFile.toString(),
                "notify.gateway.tls.key-file", keyFile.toString(),
                "notify.gateway.tls.reload-interval", "100ms",
                "notify.gateway.query-ca-file", queryCert.certificate().toString()), stub);
        tokens = gateway.tokens();
        https = HttpClient.newBuilder().sslContext(cert.trustingContext()).connectTimeout(WAIT).build();
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (stubTls != null) {
            stubTls.close();
        }
    }

    @Test
    void aWssClientIsWelcomedGetsLiveEventsAndResumesFromAnHttpsQueryApi() {
        StreamId u = StreamId.forUser("tina");
        assertEquals("wss", gateway.ws().getScheme());
        try (WsClient ws = WsClient.connect(https, gateway.ws(), Map.of("Authorization", "Bearer " + tokens.valid("tina")))) {
            assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
            ws.resumeLive();
            gateway.publish(Events.range(u, E, 1, 3));
            assertEquals(List.of(1L, 2L, 3L), ws.events(3, WAIT).stream().map(EventFrame::seq).toList());
        }
        Await.until("tina gone", WAIT, () -> gateway.server().sessions().ofUser("tina").isEmpty());
        gateway.stub().append(Events.range(u, E, 4, 6)); // missed while away: only the HTTPS query API has them
        try (WsClient again = WsClient.connect(https, gateway.ws(), Map.of("Authorization", "Bearer " + tokens.valid("tina")))) {
            assertInstanceOf(WelcomeFrame.class, again.next(WAIT));
            again.resume(u.value(), E, 3);
            assertEquals(List.of(4L, 5L, 6L), again.events(3, WAIT).stream().map(EventFrame::seq).toList());
        }
    }

    @Test
    void sseAndTheManagementListenerAnswerOverHttpsOnly() throws Exception {
        StreamId u = StreamId.forUser("sam");
        try (SseClient sse = SseClient.connect(https, gateway.http("/v1/sse?access_token=" + tokens.valid("sam")), Map.of())) {
            assertEquals(200, sse.status());
            assertEquals(1000L, sse.next(WAIT).retry());
            assertInstanceOf(WelcomeFrame.class, sse.next(WAIT).frame());
            gateway.publish(Events.range(u, E, 1, 2));
            assertEquals(List.of(E + ":1", E + ":2"), sse.events(2, WAIT).stream().map(SseClient.Message::id).toList());
        }
        URI metrics = gateway.management("/metrics");
        assertEquals("https", metrics.getScheme());
        HttpResponse<String> scrape = https.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, scrape.statusCode());
        assertTrue(scrape.body().contains("notify_tls_certificate_expiry_seconds"), "the certificate's expiry is a metric");
        assertEquals(200, https.send(HttpRequest.newBuilder(gateway.http("/healthz")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
        // plain HTTP to either listener gets no answer
        HttpClient plain = HttpClient.newBuilder().connectTimeout(WAIT).build();
        URI plainHealth = URI.create("http://127.0.0.1:" + gateway.server().managementPort() + "/healthz");
        assertThrows(IOException.class, () -> plain.send(HttpRequest.newBuilder(plainHealth).timeout(WAIT).build(),
                HttpResponse.BodyHandlers.ofString()));
    }

    @Test
    void aRotatedCertificateIsPresentedByNewHandshakesWhileAnOpenWssConnectionGoesOn() throws Exception {
        StreamId u = StreamId.forUser("rita");
        assertEquals(cert.x509(), TestCertificate.presented("127.0.0.1", gateway.port()));
        try (WsClient open = WsClient.connect(https, gateway.ws(), Map.of("Authorization", "Bearer " + tokens.valid("rita")))) {
            assertInstanceOf(WelcomeFrame.class, open.next(WAIT));
            open.resumeLive();
            TestCertificate rotated = TestCertificate.selfSigned(dir.resolve("rotated"), "rotated");
            rotated.installAt(certFile, keyFile);
            Await.until("the gateway presents the rotated certificate", WAIT,
                    () -> rotated.x509().equals(TestCertificate.presented("127.0.0.1", gateway.port())));
            assertEquals(rotated.x509(), TestCertificate.presented("127.0.0.1", gateway.server().managementPort()),
                    "one setting, both listeners");
            assertTrue(gateway.server().meterRegistry().get("notify.tls.reloads").tag("result", "ok").counter().count() >= 1);
            gateway.publish(Events.range(u, E, 1, 1));
            assertEquals(List.of(1L), open.events(1, WAIT).stream().map(EventFrame::seq).toList(), "the open connection goes on");
            HttpClient trustsRotated = HttpClient.newBuilder().sslContext(rotated.trustingContext()).build();
            try (WsClient fresh = WsClient.connect(trustsRotated, gateway.ws(), Map.of("Authorization", "Bearer " + tokens.valid("rita")))) {
                assertInstanceOf(WelcomeFrame.class, fresh.next(WAIT));
            }
        } finally {
            cert.installAt(certFile, keyFile); // the other tests trust the original
            Await.until("the original certificate is back", WAIT,
                    () -> cert.x509().equals(TestCertificate.presented("127.0.0.1", gateway.port())));
        }
    }
}
