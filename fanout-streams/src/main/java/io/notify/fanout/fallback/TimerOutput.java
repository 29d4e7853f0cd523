package io.notify.fanout.fallback;

import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.stream.SequencedEvent;

/** What the fallback timer writes: a record for {@code notify.fallback}, or a digest's inbox summary, sequenced in its stream. */
public sealed interface TimerOutput permits TimerOutput.Fallback, TimerOutput.Summary {

    /** A record for {@code notify.fallback}. */
    record Fallback(FallbackRecord record) implements TimerOutput {
    }

    /** A digest's inbox summary (type {@code notify.digest}), sequenced and held in the inbox: to the stream log and the devices. */
    record Summary(SequencedEvent event) implements TimerOutput {
    }
}
