package io.notify.cli.bench.gateway;

import io.notify.client.reconnect.Backoff;
import io.notify.protocol.NotifyJson;
import java.io.IOException;

/**
 * What a {@link LoadAgent} tells the bench (its stdout, one line per message, written whole from
 * any thread) and how long its clients wait before a retry, as the SDKs do.
 */
final class AgentOut {

    private AgentOut() {
    }

    /** {@code prefix} and {@code value} as JSON on one line. */
    static void emitJson(String prefix, Object value) {
        try {
            emit(prefix + " " + NotifyJson.mapper().writeValueAsString(value));
        } catch (IOException e) {
            emit("error cannot encode " + prefix + ": " + e);
        }
    }

    static void emit(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }

    /**
     * The SDKs' reconnect delay (docs/protocol.md §5, BACKOFF: full jitter, 1 s doubling to 60 s)
     * after {@code failedAttempts} failures (1 after the first), never earlier than a refusal's
     * {@code Retry-After}: the jitter is added on top of it, so refused clients do not return as one
     * herd when it ends.
     */
    static long retryDelayMs(int failedAttempts, int retryAfterSeconds, double uniform) {
        long jitter = Backoff.delayMillis(Math.max(0, failedAttempts - 1), uniform);
        return retryAfterSeconds >= 0 ? retryAfterSeconds * 1000L + jitter : jitter;
    }
}
