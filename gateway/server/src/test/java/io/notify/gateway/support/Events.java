package io.notify.gateway.support;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.List;

/** Test events. */
public final class Events {

    private Events() {
    }

    public static SequencedEvent durable(StreamId stream, String epoch, long seq) {
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("n", seq);
        return new SequencedEvent(stream, epoch, seq, "ev-" + seq, "test.event", data, null, "test",
                System.currentTimeMillis(), System.currentTimeMillis());
    }

    /** A durable event sequenced (and ingested) at {@code atMs}. */
    public static SequencedEvent durableAt(StreamId stream, String epoch, long seq, long atMs) {
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("n", seq);
        return new SequencedEvent(stream, epoch, seq, "ev-" + seq, "test.event", data, null, "test", atMs, atMs);
    }

    public static SequencedEvent durable(StreamId stream, String epoch, long seq, int dataChars) {
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("n", seq).put("pad", "x".repeat(dataChars));
        return new SequencedEvent(stream, epoch, seq, "ev-" + seq, "test.event", data, null, "test",
                System.currentTimeMillis(), System.currentTimeMillis());
    }

    /** A durable event of {@code type} with the producer's collapse key {@code collapseKey} (null: none). */
    public static SequencedEvent keyed(StreamId stream, String epoch, long seq, String type, String collapseKey) {
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("n", seq);
        return new SequencedEvent(stream, epoch, seq, "ev-" + seq, type, data, null, "test",
                System.currentTimeMillis(), System.currentTimeMillis(), null, collapseKey);
    }

    public static List<SequencedEvent> range(StreamId stream, String epoch, long from, long to) {
        List<SequencedEvent> out = new ArrayList<>();
        for (long s = from; s <= to; s++) {
            out.add(durable(stream, epoch, s));
        }
        return out;
    }

    public static LiveEvent ephemeral(StreamId stream, String id, String collapseKey) {
        return new LiveEvent(stream, id, "test.typing", JsonNodeFactory.instance.objectNode().put("id", id), null,
                collapseKey, "test", System.currentTimeMillis());
    }
}
