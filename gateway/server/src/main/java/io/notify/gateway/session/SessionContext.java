package io.notify.gateway.session;

import io.notify.common.logging.LogFields;
import io.notify.gateway.admission.ConnectionLimiter;
import io.notify.gateway.config.GatewayConfig;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.receipts.ReceiptBatcher;
import io.notify.gateway.registry.Registrar;
import io.notify.gateway.resume.FetchRequest;
import io.notify.gateway.resume.FetchResult;
import io.notify.gateway.resume.ResumeSource;
import io.notify.protocol.stream.StreamId;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What every session of a node shares: configuration, collaborators (the announcer publishes
 * presence's join and leave events; {@code receipts} turns the clients' acks of their own streams into
 * receipts) and the timer thread. The timer runs only short non-blocking tasks (ticks, retries, drain
 * steps, the receipts' flush).
 */
public record SessionContext(
        GatewayConfig config,
        GatewayMetrics metrics,
        Registrar registrar,
        ResumeSource resumeSource,
        SessionTable table,
        ConnectionLimiter limiter,
        ScheduledExecutorService timer,
        Clock clock,
        Announcer announcer,
        ReceiptBatcher receipts) {

    /** Asks the query API (batched, {@code BatchingResumeSource}); the answer fails with a timeout after {@code fetch-deadline}. */
    public CompletableFuture<FetchResult> fetch(FetchRequest request) {
        return resumeSource.fetch(request).toCompletableFuture().orTimeout(config.fetchDeadline().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The MDC fields of a log line about {@code connection} and {@code about} (its own stream or a room); close after the call. */
    public LogFields logFields(String connection, StreamId about) {
        return LogFields.of(LogFields.NODE, config.nodeId(), LogFields.CONNECTION, connection, LogFields.STREAM, about.value());
    }
}
