package io.notify.ingest.http;

import io.notify.common.http.BodyReader;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.ingest.idempotency.IdempotencyStore;
import io.notify.ingest.metrics.IngestMetrics;
import io.notify.ingest.produce.Accepted;
import io.notify.ingest.produce.EventWriter;
import io.notify.protocol.event.EventEnvelope;
import io.notify.schemas.topic.ProducerScope;
import io.notify.schemas.trace.HopTrace;
import io.notify.schemas.validation.EventValidator;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import io.undertow.util.Headers;
import io.undertow.util.SameThreadExecutor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /v1/events}. Threading: header checks and body reading happen on the I/O thread
 * without blocking; parsing, validation and the hand-off to the producer run on the worker
 * executor; the answer is written from Kafka's acknowledgement callback. Every event is answered
 * 202 only after Kafka acknowledged it with acks=all.
 */
public final class EventsHandler implements HttpHandler {

    /** Kafka header naming the producer (API key name) that sent the event: its id's scope, and for audits. */
    public static final String PRODUCER_HEADER = ProducerScope.HEADER;
    private static final Logger LOG = LoggerFactory.getLogger(EventsHandler.class);
    private static final byte[] VALIDATED = EventValidator.VALIDATED_VALUE.getBytes(StandardCharsets.UTF_8);

    private final Authenticator auth;
    private final IdempotencyStore idempotency;
    private final EventWriter writer;
    private final IngestMetrics metrics;
    private final int maxEventBytes;
    private final int maxBatchBytes;
    private final int maxBatchItems;

    /** Maps an Authorization header to a producer name (null when not authenticated). */
    @FunctionalInterface
    public interface Authenticator {
        String producerFor(String authorizationHeader);

        /** The producer of the request; null, with the {@code WWW-Authenticate: Bearer} challenge set, when none. */
        default String producerOf(HttpServerExchange exchange) {
            String producer = producerFor(exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION));
            if (producer == null) {
                exchange.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, "Bearer");
            }
            return producer;
        }
    }

    public EventsHandler(Authenticator auth, IdempotencyStore idempotency, EventWriter writer, IngestMetrics metrics,
                         int maxEventBytes, int maxBatchBytes, int maxBatchItems) {
        this.auth = auth;
        this.idempotency = idempotency;
        this.writer = writer;
        this.metrics = metrics;
        this.maxEventBytes = maxEventBytes;
        this.maxBatchBytes = maxBatchBytes;
        this.maxBatchItems = maxBatchItems;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        long acceptedAt = HopTrace.nowMicros(Clock.systemUTC());
        String producer = auth.producerOf(exchange);
        if (producer == null) {
            reject(exchange, Problems.unauthorized());
            return;
        }
        String contentType = exchange.getRequestHeaders().getFirst(Headers.CONTENT_TYPE);
        RequestBody.Format format = RequestBody.formatOf(contentType);
        if (format == null) {
            reject(exchange, Problems.unsupportedMediaType(contentType));
            return;
        }
        BodyReader.read(exchange, maxBatchBytes,
                (ex, body) -> ex.dispatch(e -> process(e, body, format, producer, acceptedAt)),
                ex -> reject(ex, Problems.bodyTooLarge(maxBatchBytes)),
                this::onReadError);
    }

    private void onReadError(HttpServerExchange exchange, IOException error) {
        if (error instanceof RequestTooBigException) {
            reject(exchange, Problems.bodyTooLarge(maxBatchBytes));
        } else {
            // The client went away mid-body: nothing was written, nobody to answer.
            metrics.request(499);
            exchange.endExchange();
        }
    }

    /** Worker thread: split, validate, then hand off to Kafka once this call stack has returned. */
    private void process(HttpServerExchange exchange, byte[] body, RequestBody.Format format, String producer,
                         long acceptedAt) {
        RequestBody.Split split;
        try {
            split = RequestBody.split(body, format, maxEventBytes, maxBatchItems);
        } catch (RequestBody.Rejected e) {
            reject(exchange, e.problem);
            return;
        }
        List<CompletableFuture<ItemResult>> results = new ArrayList<>(split.candidates().size());
        List<Runnable> writes = new ArrayList<>();
        for (int i = 0; i < split.candidates().size(); i++) {
            results.add(prepare(i, split.candidates().get(i), producer, acceptedAt, writes));
        }
        exchange.dispatch(SameThreadExecutor.INSTANCE, () -> {
            writes.forEach(Runnable::run);
            CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
                    .whenComplete((ignored, error) -> respond(exchange, split.batch(), results));
        });
    }

    /**
     * One item's answer, never an exception: a fault in one item (a bug this code did not foresee)
     * fails that item alone, before it claimed its id, so the batch's other items are still written
     * and answered, and no id stays claimed by a write that never ran.
     */
    private CompletableFuture<ItemResult> prepare(int index, RequestBody.Candidate candidate, String producer,
                                                  long acceptedAt, List<Runnable> writes) {
        try {
            return prepareItem(index, candidate, producer, acceptedAt, writes);
        } catch (RuntimeException e) {
            LOG.error("event {} of a request failed unforeseen; answered 500 internal, not written", index, e);
            return done(index, null, Problems.internal(e)); // counted as rejected{reason="internal"}
        }
    }

    private CompletableFuture<ItemResult> prepareItem(int index, RequestBody.Candidate candidate, String producer,
                                                      long acceptedAt, List<Runnable> writes) {
        ItemCheck.Outcome outcome = ItemCheck.check(candidate);
        if (outcome instanceof ItemCheck.Refused refused) {
            return done(index, refused.id(), refused.problem());
        }
        ItemCheck.Ready ready = (ItemCheck.Ready) outcome;
        EventEnvelope event = ready.event();
        byte[] value = ready.value();
        List<Header> headers = headers(producer, acceptedAt);
        // Everything that can fail is done above: from the claim on, the write is queued.
        // ids are the producer's own: another producer's equal id is another event (ProducerScope)
        String scopedId = ProducerScope.key(producer, event.id());
        IdempotencyStore.Claim claim = ready.digest() != null
                ? idempotency.claim(scopedId, ready.digest())
                : new IdempotencyStore.Fresh(new CompletableFuture<>());
        if (claim instanceof IdempotencyStore.Conflict) {
            return done(index, event.id(), Problems.conflict(event.id()));
        }
        if (claim instanceof IdempotencyStore.Replay replay) {
            return replay.original().handle((accepted, error) -> toResult(index, event.id(), accepted, error, true));
        }
        CompletableFuture<Accepted> slot = ((IdempotencyStore.Fresh) claim).slot();
        writes.add(() -> writer.write(event.id(), event.recordKey(), value, headers).whenComplete((accepted, error) -> {
            if (error != null) {
                idempotency.release(scopedId, slot);
                slot.completeExceptionally(error);
            } else {
                slot.complete(accepted);
            }
        }));
        return slot.handle((accepted, error) -> toResult(index, event.id(), accepted, error, false));
    }

    private static List<Header> headers(String producer, long acceptedAt) {
        return List.of(new RecordHeader(PRODUCER_HEADER, producer.getBytes(StandardCharsets.UTF_8)),
                new RecordHeader(EventValidator.VALIDATED_HEADER, VALIDATED),
                new RecordHeader(HopTrace.ACCEPT, HopTrace.encode(acceptedAt)));
    }

    private ItemResult toResult(int index, String id, Accepted accepted, Throwable error, boolean replay) {
        if (error == null) {
            if (replay) {
                metrics.duplicate();
            } else {
                metrics.accepted();
            }
            return ItemResult.accepted(index, accepted, replay);
        }
        Problem problem = Problems.ofWriteFailure(error);
        metrics.rejected(problem.type().substring(problem.type().lastIndexOf(':') + 1));
        return ItemResult.failed(index, id, problem);
    }

    private CompletableFuture<ItemResult> done(int index, String id, Problem problem) {
        metrics.rejected(problem.type().substring(problem.type().lastIndexOf(':') + 1));
        return CompletableFuture.completedFuture(ItemResult.failed(index, id, problem));
    }

    private void respond(HttpServerExchange exchange, boolean batch, List<CompletableFuture<ItemResult>> futures) {
        List<ItemResult> results = futures.stream().map(CompletableFuture::join).toList();
        boolean retryable = results.stream().anyMatch(r -> r.status() == 503);
        if (retryable) {
            exchange.getResponseHeaders().put(HttpResponses.RETRY_AFTER, "1");
        }
        if (!batch) {
            ItemResult only = results.get(0);
            metrics.request(only.status());
            if (only.isAccepted()) {
                HttpResponses.json(exchange, 202, only.withoutIndex());
            } else {
                HttpResponses.problem(exchange, only.problem());
            }
            return;
        }
        long accepted = results.stream().filter(ItemResult::isAccepted).count();
        int status = accepted == results.size() ? 202 : 207;
        metrics.request(status);
        HttpResponses.json(exchange, status, new BatchResponse(accepted, results.size() - accepted, results));
    }

    /** The body of a batch answer: counts, then one result per event in request order. */
    public record BatchResponse(long accepted, long rejected, List<ItemResult> results) {
    }

    private void reject(HttpServerExchange exchange, Problem problem) {
        metrics.request(problem.status());
        metrics.rejected(problem.type().substring(problem.type().lastIndexOf(':') + 1));
        HttpResponses.problem(exchange, problem);
    }
}
