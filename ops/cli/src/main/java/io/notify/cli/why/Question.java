package io.notify.cli.why;

import io.notify.protocol.stream.StreamId;
import java.time.Instant;

/** What {@code why} is asked: the life of event {@code eventId} for {@code user}, looked for in {@code [from, to)}. */
record Question(String user, String eventId, Instant from, Instant to) {

    /** The user's stream, {@code u:<user>}: the key of every stream-keyed topic. */
    String stream() {
        return StreamId.forUser(user).value();
    }
}
