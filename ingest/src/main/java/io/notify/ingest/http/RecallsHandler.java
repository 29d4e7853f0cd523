package io.notify.ingest.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.common.http.BodyReader;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.ingest.metrics.IngestMetrics;
import io.notify.ingest.produce.Accepted;
import io.notify.ingest.produce.EventWriter;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.event.Recall;
import io.notify.schemas.trace.HopTrace;
import io.notify.schemas.validation.EventValidator;
import io.notify.schemas.validation.InvalidEventException;
import io.notify.schemas.validation.RecallValidator;
import io.notify.schemas.validation.Violation;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import io.undertow.util.Headers;
import io.undertow.util.PathTemplateMatch;
import io.undertow.util.SameThreadExecutor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * A producer takes back events it sent (docs/protocol.md, "Recall"): {@code DELETE /v1/events/{id}} with
 * {@code {"to": …}} (the streams to take it back from), or {@code POST /v1/recalls} with a whole recall,
 * by id or by cancellation key ({@code recall-v1.schema.json}). The recall is written to
 * {@code notify.events} in the producer's scope, keyed like an event to the same first addressee, and
 * answered {@code 202} once Kafka acknowledged it, with the recall's id and where it was stored;
 * fanout-streams applies it to each stream it names. An unknown event is not an error here: ingest keeps
 * no events, so what was taken back shows in fanout-streams' {@code notify_fanout_recalls_total}.
 * Answers: 401 without a producer key, 415 unless JSON, 413 over {@code max-event-bytes}, 400
 * {@code invalid-recall} naming the field, 503 while Kafka cannot take it.
 */
public final class RecallsHandler implements HttpHandler {

    private final EventsHandler.Authenticator auth;
    private final EventWriter writer;
    private final IngestMetrics metrics;
    private final int maxBytes;

    public RecallsHandler(EventsHandler.Authenticator auth, EventWriter writer, IngestMetrics metrics, int maxBytes) {
        this.auth = auth;
        this.writer = writer;
        this.metrics = metrics;
        this.maxBytes = maxBytes;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        long acceptedAt = HopTrace.nowMicros(Clock.systemUTC());
        String producer = auth.producerOf(exchange);
        if (producer == null) {
            answer(exchange, Problems.unauthorized());
            return;
        }
        String contentType = exchange.getRequestHeaders().getFirst(Headers.CONTENT_TYPE);
        if (RequestBody.formatOf(contentType) != RequestBody.Format.JSON) {
            answer(exchange, Problems.unsupportedMediaType("application/json", contentType));
            return;
        }
        PathTemplateMatch match = exchange.getAttachment(PathTemplateMatch.ATTACHMENT_KEY);
        String eventId = match == null ? null : match.getParameters().get("id");
        BodyReader.read(exchange, maxBytes,
                (ex, body) -> ex.dispatch(e -> write(e, body, eventId, producer, acceptedAt)),
                ex -> answer(ex, Problems.bodyTooLarge(maxBytes)),
                this::onReadError);
    }

    private void onReadError(HttpServerExchange exchange, IOException error) {
        if (error instanceof RequestTooBigException) {
            answer(exchange, Problems.bodyTooLarge(maxBytes));
        } else {
            metrics.request(499); // the client went away mid-body: nothing was written, nobody to answer
            exchange.endExchange();
        }
    }

    /** Worker thread: the recall validated, then written; the answer comes from Kafka's acknowledgement. */
    private void write(HttpServerExchange exchange, byte[] body, String eventId, String producer, long acceptedAt) {
        Recall recall;
        try {
            recall = RecallValidator.toRecall(document(body, eventId));
        } catch (InvalidEventException e) {
            answer(exchange, Problems.invalidRecall(e.violations()));
            return;
        }
        byte[] value;
        try {
            value = NotifyJson.mapper().writeValueAsBytes(recall);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            answer(exchange, Problems.writeFailed("cannot write the recall: " + e.getOriginalMessage()));
            return;
        }
        List<Header> headers = List.of(new RecordHeader(EventsHandler.PRODUCER_HEADER, producer.getBytes(StandardCharsets.UTF_8)),
                new RecordHeader(HopTrace.ACCEPT, HopTrace.encode(acceptedAt)));
        // answered from Kafka's acknowledgement: the exchange stays open past this call (as EventsHandler's)
        exchange.dispatch(SameThreadExecutor.INSTANCE, () -> writer.write(recall.id(), recall.recordKey(), value, headers)
                .whenComplete((accepted, error) -> {
            if (error == null) {
                metrics.recall("accepted");
                metrics.request(202);
                HttpResponses.json(exchange, 202, new Answer(recall, accepted));
            } else {
                answer(exchange, Problems.ofWriteFailure(error)); // 503 overloaded or unavailable, 500 refused: as for events
            }
        }));
    }

    /** {@code DELETE /v1/events/{id}}: the body's {@code to} with the path's id; {@code POST /v1/recalls}: the body. */
    private static JsonNode document(byte[] body, String eventId) {
        JsonNode doc = EventValidator.readTree(body);
        if (eventId == null || !doc.isObject()) {
            return doc;
        }
        if (!EventIds.isValid(eventId)) {
            throw new InvalidEventException(List.of(new Violation("/recall/id", "the path's event id must be 1..128 chars of"
                    + " [A-Za-z0-9._:-]", "pattern")));
        }
        ObjectNode recall = ((ObjectNode) doc).deepCopy();
        if (recall.has(Recall.FIELD)) {
            throw new InvalidEventException(List.of(new Violation("/recall", "names the event in the path; the body has only to"
                    + " (and optionally the recall's own id)", "additionalProperties")));
        }
        recall.putObject(Recall.FIELD).put("id", eventId);
        return recall;
    }

    private void answer(HttpServerExchange exchange, Problem problem) {
        metrics.request(problem.status());
        metrics.recall(problem.type().substring(problem.type().lastIndexOf(':') + 1));
        if (problem.status() == 503) {
            HttpResponses.retryLater(exchange, problem, 1);
        } else {
            HttpResponses.problem(exchange, problem);
        }
    }

    /** The {@code 202} body: the recall as written and where Kafka stored it. */
    public record Answer(String id, Recall.Target recall, String topic, int partition, long offset) {
        Answer(Recall r, Accepted a) {
            this(r.id(), r.recall(), a.topic(), a.partition(), a.offset());
        }
    }
}
