package io.notify.cli.why;

import io.notify.cli.replay.Routing;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.schemas.topic.DlqFailure;
import java.time.Instant;
import java.util.List;

/**
 * Everything the topics hold about one event of one user, as read by {@link EvidenceReader}: the
 * input of {@link Timeline}, which is pure. {@code now} is when the command started (the default
 * end of the window, and the clock a pending fallback is compared with). {@code push}: the push
 * sender's outcomes of the event, read (in {@code notify.push-outcomes}) only when a push fallback
 * record was found, skipped otherwise.
 */
record Evidence(Question question, Instant now, Looked<Copy> events, Looked<Rejection> dlq,
                Looked<Sequenced> streamLog, Looked<Routing> routing, Looked<Receipt> receipts,
                Looked<FallbackRecord> fallback, Looked<PushOutcome> push) {

    /** A record of notify.events carrying the id: where, when, its key, and what its value says of class and users. */
    record Copy(int partition, long offset, long timestamp, String key, String eventClass, List<String> users) {

        Copy {
            users = users == null ? List.of() : List.copyOf(users);
        }
    }

    /**
     * A record of notify.events.dlq carrying the id, with its failure headers ({@code failure} null
     * when they cannot be read; {@code error} is then the raw {@code notify.error} header, if any).
     */
    record Rejection(int partition, long offset, long timestamp, String key, DlqFailure failure, String error) {
    }

    /** A record of notify.stream-log of the user's stream carrying the id. */
    record Sequenced(int partition, long offset, long timestamp, SequencedEvent event) {
    }
}
