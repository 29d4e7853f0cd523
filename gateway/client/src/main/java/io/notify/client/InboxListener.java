package io.notify.client;

/**
 * What a {@link NotifyClient} tells the application about the user's inbox (docs/inbox.md), when
 * registered with {@link NotifyClientBuilder#inbox(InboxListener)}. Same threading as
 * {@link NotifyListener}: every callback runs on the client's one event thread, one at a time, in
 * order with the events; a callback that throws is reported through {@link NotifyListener#onError}
 * and otherwise ignored.
 */
public interface InboxListener {

    /**
     * A device of the user (this one included, {@link InboxChange#fromThisDevice()}) marked events
     * seen, read or archived: the change and the counts after it. Stale changes (a lower version
     * than one already applied) are not passed on. A change made while this client was not
     * connected is never told (the frame is ephemeral); the estimate catches up after the next
     * connect instead ({@link #onUnread}).
     */
    default void onState(InboxChange change) {
    }

    /**
     * The client's unread estimate changed ({@link NotifyClient#unread()}): after a state change, a
     * durable event of the user's stream beyond the counted head, a {@code collapsed} range, or the
     * counts read after each (re)connect.
     */
    default void onUnread(InboxCounts estimate) {
    }
}
