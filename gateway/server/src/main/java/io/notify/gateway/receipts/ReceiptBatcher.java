package io.notify.gateway.receipts;

import io.notify.gateway.metrics.InboxMetrics;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.StreamId;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * Turns clients' {@code ack} frames into {@code ack} receipts on {@code notify.receipts}
 * (docs/gateway.md, "Receipts"), at most one per device and stream per flush: an ack is only noted
 * here (the highest seq per device and stream; an ack of another epoch replaces the one noted, since
 * the session follows that epoch now), and {@link #flush}, which the node's timer runs every
 * {@code inbox.ack-flush-interval} (100 ms), hands what was noted to the {@link ReceiptSink} and
 * starts a new window. At most {@code maxPending} devices and streams are noted at a time: an ack of
 * one more is dropped ({@code receipts_total{kind="ack",outcome="dropped"}}), an ack of one already
 * noted still counts. Produce failures are counted ({@code outcome="failed"}), never retried nor
 * reported to sessions: a later ack of the same device carries the same information. Never blocks
 * (a short lock around a map); thread-safe.
 */
public final class ReceiptBatcher {

    private record Key(String device, StreamId stream) {
    }

    /** The highest ack of one device and stream in this window, and when it came. */
    private static final class Noted {
        String epoch;
        long upTo;
        long at;

        Noted(String epoch, long upTo, long at) {
            this.epoch = epoch;
            this.upTo = upTo;
            this.at = at;
        }
    }

    private final ReceiptSink sink;
    private final InboxMetrics metrics;
    private final int maxPending;
    private final Clock clock;
    private HashMap<Key, Noted> pending = new HashMap<>();

    public ReceiptBatcher(ReceiptSink sink, int maxPending, Clock clock, InboxMetrics metrics) {
        if (maxPending < 1) {
            throw new IllegalArgumentException("maxPending must be >= 1");
        }
        this.sink = sink;
        this.maxPending = maxPending;
        this.clock = clock;
        this.metrics = metrics;
    }

    /**
     * Notes that {@code device} processed the durable events of the user stream {@code stream} up to
     * {@code seq} of {@code epoch} (null: the session knows no epoch for it yet). False when it was
     * dropped because {@code maxPending} other devices and streams are noted already.
     */
    public boolean ack(StreamId stream, String epoch, long seq, String device) {
        if (!stream.isUser()) {
            throw new IllegalArgumentException("only user streams have receipts, got " + stream);
        }
        Key key = new Key(device, stream);
        long now = clock.millis();
        synchronized (this) {
            Noted noted = pending.get(key);
            if (noted == null) {
                if (pending.size() >= maxPending) {
                    metrics.receipt(ReceiptKind.ACK.wireName(), "dropped", 1);
                    return false;
                }
                pending.put(key, new Noted(epoch, seq, now));
                return true;
            }
            if (!Objects.equals(noted.epoch, epoch) || seq > noted.upTo) {
                noted.epoch = epoch;
                noted.upTo = seq;
                noted.at = now;
            }
        }
        metrics.ackCoalesced();
        return true;
    }

    /** Devices and streams noted in the current window. */
    public synchronized int pending() {
        return pending.size();
    }

    /**
     * Hands every noted ack to the sink as one receipt and starts a new window; the node's timer calls
     * it every {@code ack-flush-interval}, and the node once more when it stops. Returns how many receipts
     * were handed over.
     */
    public int flush() {
        Map<Key, Noted> window;
        synchronized (this) {
            if (pending.isEmpty()) {
                return 0;
            }
            window = pending;
            pending = new HashMap<>();
        }
        List<Receipt> receipts = new ArrayList<>(window.size());
        window.forEach((key, n) -> receipts.add(Receipt.ack(key.stream(), n.epoch, n.upTo, key.device(), n.at)));
        for (CompletionStage<Void> sent : sink.sendAll(receipts)) {
            sent.whenComplete((ok, error) -> metrics.receipt(ReceiptKind.ACK.wireName(), error == null ? "produced" : "failed", 1));
        }
        return receipts.size();
    }
}
