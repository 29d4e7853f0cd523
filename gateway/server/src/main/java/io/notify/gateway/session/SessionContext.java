package io.notify.gateway.session;

import io.notify.gateway.admission.ConnectionLimiter;
import io.notify.gateway.config.GatewayConfig;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.receipts.ReceiptBatcher;
import io.notify.gateway.registry.Registrar;
import io.notify.gateway.resume.ResumeSource;
import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;

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
}
