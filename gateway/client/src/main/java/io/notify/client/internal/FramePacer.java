package io.notify.client.internal;

import io.notify.protocol.frame.ClientFrame;
import java.util.ArrayDeque;

/**
 * Spreads the client's own frames (subscribes, unsubscribes, acks) under the gateway's inbound
 * rate limit (docs/gateway.md: {@code inbound-rate} 10/s with a burst of 20 per connection, every
 * frame counted): a token bucket of {@link #BURST} frames refilled at {@link #RATE_PER_SECOND}/s,
 * below the gateway's so pongs always find room. A client with 50 rooms thus sends 10 subscribes
 * at once and the rest within about 5 s, instead of being closed with 4029. Pure bookkeeping on the
 * caller's clock; confined to the client's event thread.
 */
public final class FramePacer {

    static final int BURST = 10;
    static final double RATE_PER_SECOND = 8;
    private static final long NANOS_PER_TOKEN = (long) (1_000_000_000L / RATE_PER_SECOND);

    private final ArrayDeque<ClientFrame> queue = new ArrayDeque<>();
    private double tokens = BURST;
    private long lastNanos;
    private boolean started;

    public void offer(ClientFrame frame) {
        queue.add(frame);
    }

    /** The next frame that may go now, or null (none queued, or none allowed yet: see {@link #nanosUntilNext}). */
    public ClientFrame poll(long nowNanos) {
        refill(nowNanos);
        if (queue.isEmpty() || tokens < 1) {
            return null;
        }
        tokens -= 1;
        return queue.poll();
    }

    /** How long until the next queued frame may go; 0 when one may go now, -1 when none is queued. */
    public long nanosUntilNext(long nowNanos) {
        if (queue.isEmpty()) {
            return -1;
        }
        refill(nowNanos);
        return tokens >= 1 ? 0 : (long) Math.ceil((1 - tokens) * NANOS_PER_TOKEN);
    }

    public int queued() {
        return queue.size();
    }

    /** A new connection: the gateway's bucket is full again, and nothing queued for the old one is sent. */
    public void reset(long nowNanos) {
        queue.clear();
        tokens = BURST;
        lastNanos = nowNanos;
        started = true;
    }

    private void refill(long nowNanos) {
        if (!started) {
            lastNanos = nowNanos;
            started = true;
        }
        long elapsed = nowNanos - lastNanos;
        if (elapsed > 0) {
            tokens = Math.min(BURST, tokens + (double) elapsed / NANOS_PER_TOKEN);
            lastNanos = nowNanos;
        }
    }
}
