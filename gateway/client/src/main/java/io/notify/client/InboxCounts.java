package io.notify.client;

import io.notify.protocol.stream.Position;
import java.util.Objects;
import java.util.Optional;

/**
 * The unread and unseen counts of the user's inbox (docs/inbox.md): the answer of
 * {@link NotifyInbox#unreadCount()}, and the client's running estimate ({@link NotifyClient#unread()},
 * {@link InboxListener#onUnread}).
 *
 * @param unread  events the inbox holds up to {@code head} that are neither read nor archived
 * @param unseen  events up to {@code head} not seen, read nor archived
 * @param version the read state's version (+1 per change): a higher one is newer
 * @param head    the position the counts were computed up to; empty for a stream without durable events
 */
public record InboxCounts(long unread, long unseen, long version, Optional<Position> head) {

    public InboxCounts {
        Objects.requireNonNull(head, "head");
        if (unread < 0 || unseen < 0 || version < 0) {
            throw new IllegalArgumentException("counts and version must be >= 0");
        }
    }
}
