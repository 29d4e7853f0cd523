package io.notify.gateway.session;

import io.notify.common.logging.LogFields;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the registry writes of a connection (register, unregister, room subscriptions, presence):
 * the registry is a routing hint, so a write that fails or is not confirmed within
 * {@value #TIMEOUT_MS} ms is counted ({@code registry_failures_total{op}}) and, when it matters,
 * logged; the connection keeps being served and the registry writes what it was told again. Never blocks.
 */
final class RegistryWrites {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryWrites.class);
    static final long TIMEOUT_MS = 2_000;

    private RegistryWrites() {
    }

    /** Counts {@code write} under {@code op} if it fails; logs it when {@code what} is given (null: count only). */
    static void watch(SessionContext ctx, String connectionId, CompletionStage<Void> write, String op, String what) {
        watch(ctx, connectionId, write, op, what, null);
    }

    /** As {@link #watch(SessionContext, String, CompletionStage, String, String)}, and runs {@code onFailure} (if any) when it fails. */
    static void watch(SessionContext ctx, String connectionId, CompletionStage<Void> write, String op, String what,
                      Runnable onFailure) {
        write.toCompletableFuture().orTimeout(TIMEOUT_MS, TimeUnit.MILLISECONDS).whenComplete((ok, error) -> {
            if (error != null) {
                ctx.metrics().registryFailure(op);
                if (onFailure != null) {
                    onFailure.run();
                }
                if (what != null) {
                    try (LogFields f = LogFields.of(LogFields.NODE, ctx.config().nodeId(), LogFields.CONNECTION, connectionId)) {
                        LOG.warn("connection {}: {} failed ({}); serving anyway", connectionId, what, error.toString());
                    }
                }
            }
        });
    }
}
