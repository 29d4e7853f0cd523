package io.notify.fanout.receipts;

import java.time.Duration;

/**
 * {@code notify.fanout.inbox-state.*} (docs/inbox.md).
 *
 * @param maxDevices      devices whose last ack a stream's state keeps (least recently heard dropped first)
 * @param publishInterval how often states changed only by acks are written to notify.inbox-state
 *                        (marks are written at once)
 */
public record InboxStateSettings(int maxDevices, Duration publishInterval) {
}
