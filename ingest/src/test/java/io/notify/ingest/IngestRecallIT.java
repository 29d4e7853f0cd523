package io.notify.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.devstack.Await;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Ingest's recall API against the real broker (docs/openapi.yaml, docs/protocol.md "Recall"), on IngestApiIT's server. */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(120)
class IngestRecallIT {

    @BeforeAll
    static void start(Infra infra) {
        IngestApiIT.start(infra);
    }

    @AfterAll
    static void stop() {
        IngestApiIT.stop();
    }

    @Test
    void aRecallByIdIsWrittenInTheProducersScopeKeyedLikeTheEvent() throws Exception {
        String id = IngestApiIT.uniqueId();
        assertEquals(202, IngestApiIT.client.post(IngestApiIT.KEY, "application/json", IngestApiIT.event(id, "42")).statusCode());
        HttpResponse<String> r = IngestApiIT.client.recallEvent(IngestApiIT.KEY, id, "{\"to\":{\"users\":[\"42\"]}}");
        assertEquals(202, r.statusCode(), r.body());
        JsonNode answer = IngestApiIT.body(r);
        assertEquals(id, answer.path("recall").path("id").asText());
        String recallId = answer.path("id").asText();

        var records = IngestApiIT.recordsWithId(recallId, 1);
        assertEquals(1, records.size());
        var rec = records.get(0);
        assertEquals(answer.get("offset").asLong(), rec.offset());
        assertEquals("u:42", rec.key(), "keyed like the event, so it is sequenced after it");
        assertEquals("orders", new String(rec.headers().lastHeader("notify.producer").value(), StandardCharsets.UTF_8),
                "in the producer's scope: it takes back the producer's own events only");
        JsonNode stored = IngestApiIT.JSON.readTree(rec.value());
        assertEquals(id, stored.path("recall").path("id").asText());
        assertEquals("42", stored.path("to").path("users").path(0).asText());
    }

    @Test
    void aRecallByCancellationKeyIsAccepted() throws Exception {
        assertEquals(202, IngestApiIT.client.post(IngestApiIT.KEY, "application/json", "{\"type\":\"order.shipped\","
                + "\"to\":{\"users\":[\"7\"]},\"cancellationKey\":\"order-7\"}").statusCode());
        HttpResponse<String> r = IngestApiIT.client.recall(IngestApiIT.KEY,
                "{\"id\":\"rc-order-7\",\"recall\":{\"cancellationKey\":\"order-7\"},\"to\":{\"users\":[\"7\",\"8\"]}}");
        assertEquals(202, r.statusCode(), r.body());
        assertEquals("rc-order-7", IngestApiIT.body(r).get("id").asText());
        assertEquals(1, IngestApiIT.recordsWithId("rc-order-7", 1).size());
    }

    @Test
    void badRecallsAreRefusedNamingTheFieldAndNothingIsWritten() throws Exception {
        HttpResponse<String> noTo = IngestApiIT.client.recallEvent(IngestApiIT.KEY, "e-1", "{\"id\":\"rc-bad-1\"}");
        assertEquals(400, noTo.statusCode(), noTo.body());
        assertEquals("urn:notify:problem:invalid-recall", IngestApiIT.body(noTo).get("type").asText());
        assertTrue(pointers(noTo).contains("/to"), noTo.body());

        HttpResponse<String> both = IngestApiIT.client.recall(IngestApiIT.KEY,
                "{\"id\":\"rc-bad-2\",\"recall\":{\"id\":\"e-1\",\"cancellationKey\":\"k\"},\"to\":{\"users\":[\"7\"]}}");
        assertEquals(400, both.statusCode(), "exactly one of id and cancellationKey: " + both.body());

        HttpResponse<String> twice = IngestApiIT.client.recallEvent(IngestApiIT.KEY, "e-1",
                "{\"recall\":{\"id\":\"e-2\"},\"to\":{\"users\":[\"7\"]}}");
        assertEquals(400, twice.statusCode(), "the path names the event: " + twice.body());

        assertEquals(401, IngestApiIT.client.recallEvent(null, "e-1", "{\"to\":{\"users\":[\"7\"]}}").statusCode());
        assertEquals(400, IngestApiIT.client.recall(IngestApiIT.KEY, "{not json").statusCode());
        assertEquals(0, IngestApiIT.recordsWithId("rc-bad-1", 0).size());
        assertEquals(0, IngestApiIT.recordsWithId("rc-bad-2", 0).size());
    }

    @Test
    void aClientThatLeavesMidBodyIsCountedAsGoneNotAnsweredTooLarge() throws Exception {
        double gone = recalls("requests_total", "status=\"499\"");
        double tooLarge = recalls("recalls_total", "outcome=\"body-too-large\"");
        try (Socket s = new Socket("127.0.0.1", IngestApiIT.server.port())) {
            s.getOutputStream().write(("DELETE /v1/events/e-1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + IngestApiIT.KEY
                    + "\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"to\":").getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
        }
        Await.until("the request counted as gone (499)", Duration.ofSeconds(20), () -> recalls("requests_total", "status=\"499\"") > gone);
        assertEquals(tooLarge, recalls("recalls_total", "outcome=\"body-too-large\""), "not refused as too large");
    }

    /** The sum of notify_ingest_&lt;name&gt; samples whose labels hold {@code label}, from the management port's /metrics. */
    private static double recalls(String name, String label) {
        try {
            String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + IngestApiIT.server.managementPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            return metrics.lines().filter(l -> l.startsWith("notify_ingest_" + name + "{") && l.contains(label))
                    .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> pointers(HttpResponse<String> r) throws Exception {
        return IngestApiIT.body(r).path("errors").findValuesAsText("pointer");
    }
}
