package io.notify.protocol.inbox;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.stream.Endpoints;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.text.Clip;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The value on {@code notify.receipts}: what one device or one user did with events of their own
 * stream (docs/inbox.md). Written by the gateways, read by fanout-streams, which applies it to the
 * stream's inbox state in the task that owns the stream's inbox.
 *
 * <ul>
 *   <li>{@code ack}: the device {@code device} processed every durable event up to {@code upTo}
 *       (the client's cumulative {@code ack} frame, at most one per device and stream per 100 ms);</li>
 *   <li>{@code seen}, {@code read}, {@code archive}: the user marked every event up to {@code upTo},
 *       or exactly the events {@code ids} (1..{@value #MAX_IDS} event ids), from {@code device} if the
 *       client named one.</li>
 * </ul>
 * {@code epoch}, when present, is the history the seqs belong to: a receipt for another epoch than
 * the stream's current one is dropped (counted), never applied to the wrong events. Only user
 * streams ({@code u:<user>}) have receipts. {@code at} is when the gateway took it, in epoch ms.
 */
@JsonPropertyOrder({"stream", "kind", "epoch", "upTo", "ids", "device", "at"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Receipt(StreamId stream, ReceiptKind kind, String epoch, Long upTo, List<String> ids, String device, long at) {

    public static final int MAX_IDS = 100;

    public Receipt {
        if (stream == null || !stream.isUser()) {
            throw new IllegalArgumentException("stream must be a user's stream u:<user>, got " + stream);
        }
        if (kind == null) {
            throw new IllegalArgumentException("kind is required (ack, seen, read or archive)");
        }
        if (epoch != null && !Position.EPOCH.matcher(epoch).matches()) {
            throw new IllegalArgumentException("epoch must be 1..64 chars of [A-Za-z0-9_-], got '" + Clip.clip(epoch) + "'");
        }
        if ((upTo == null) == (ids == null || ids.isEmpty())) {
            throw new IllegalArgumentException("give exactly one of upTo (a seq) and ids (1.." + MAX_IDS + " event ids)");
        }
        if (upTo != null && (upTo < 1 || upTo > Position.MAX_SEQ)) {
            throw new IllegalArgumentException("upTo must be a seq from 1 to " + Position.MAX_SEQ + ", got " + upTo);
        }
        if (ids != null) {
            ids = List.copyOf(new LinkedHashSet<>(ids));
            if (ids.isEmpty() || ids.size() > MAX_IDS) {
                throw new IllegalArgumentException("ids must hold 1.." + MAX_IDS + " event ids, got " + ids.size());
            }
            for (String id : ids) {
                if (!EventIds.isValid(id)) {
                    throw new IllegalArgumentException("ids holds an invalid event id '" + Clip.clip(id)
                            + "' (1..128 chars of [A-Za-z0-9._:-])");
                }
            }
        }
        if (kind == ReceiptKind.ACK && (upTo == null || device == null)) {
            throw new IllegalArgumentException("an ack names its device and the seq it acknowledges (upTo)");
        }
        if (device != null && !Endpoints.CONNECTION_ID.matcher(device).matches()) {
            throw new IllegalArgumentException("device must be 1..64 chars of [A-Za-z0-9._-], got '" + Clip.clip(device) + "'");
        }
        if (at < 0) {
            throw new IllegalArgumentException("at must be epoch ms >= 0, got " + at);
        }
    }

    /** A device's cumulative delivery receipt. */
    public static Receipt ack(StreamId stream, String epoch, long upTo, String device, long at) {
        return new Receipt(stream, ReceiptKind.ACK, epoch, upTo, null, device, at);
    }

    /** The user marked every event up to {@code upTo}. */
    public static Receipt markUpTo(StreamId stream, ReceiptKind kind, String epoch, long upTo, String device, long at) {
        return new Receipt(stream, kind, epoch, upTo, null, device, at);
    }

    /** The user marked exactly the events {@code ids}. */
    public static Receipt markIds(StreamId stream, ReceiptKind kind, String epoch, List<String> ids, String device, long at) {
        return new Receipt(stream, kind, epoch, null, ids, device, at);
    }
}
