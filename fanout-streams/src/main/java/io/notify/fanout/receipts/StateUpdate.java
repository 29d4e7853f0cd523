package io.notify.fanout.receipts;

import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.stream.LiveEvent;

/**
 * What applying receipts produces for one stream: its new state (for {@code notify.inbox-state})
 * and, when a mark changed it, the ephemeral event that carries the {@code state} frame to the
 * user's devices (null for a state written only because acks changed it).
 */
public record StateUpdate(InboxState state, LiveEvent frame) {
}
