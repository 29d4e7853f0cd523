package io.notify.gateway.inbox;

import io.notify.protocol.stream.StreamId;
import java.util.concurrent.CompletionStage;

/**
 * Where the inbox API reads a user's inbox: the fanout-streams query API's
 * {@code GET /v1/streams/{stream}/inbox} and {@code /state} ({@link HttpInboxSource}), or a test's
 * double ({@code GatewayService.Doubles}). Implementations never block the caller, complete every
 * stage within their own timeout and report failures as {@link Answer.Unavailable}, never
 * exceptionally.
 */
public interface InboxSource extends AutoCloseable {

    /** What the query API answered. */
    sealed interface Answer {
        /** A JSON answer to pass on: 200, or 400 (a problem about the request). */
        record Json(int status, byte[] body) implements Answer {
        }

        /** No instance could answer; {@code detail} is for logs, never for the user (it names internal hosts). */
        record Unavailable(String detail) implements Answer {
        }
    }

    /** A page of the inbox of {@code stream}, newest first: the query API's body as is. */
    CompletionStage<Answer> page(StreamId stream, InboxQuery query);

    /** The counts and read state of {@code stream}: the query API's body as is. */
    CompletionStage<Answer> state(StreamId stream);

    /** The push registrations of the user of {@code stream}: the query API's body as is (docs/push.md). */
    CompletionStage<Answer> pushRegistrations(StreamId stream);

    /** The preferences of the user of {@code stream}: the query API's body as is (docs/inbox.md, "Preferences"). */
    CompletionStage<Answer> preferences(StreamId stream);

    @Override
    default void close() {
    }
}
