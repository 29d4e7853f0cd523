package io.notify.client;

/**
 * Counters of one {@link NotifyClient} since it was built.
 *
 * @param delivered         events handed to {@link NotifyListener#onEvent} or a {@link RoomListener}
 *                          (durable and ephemeral)
 * @param duplicatesDropped durable events dropped because they were at or below the stored position
 *                          (replay overlapping live delivery, a node's in-flight frames after a
 *                          failover) or of another epoch
 * @param resets            {@code reset} frames handled
 * @param connects          connections that reached {@code welcome}
 * @param disconnects       connections and attempts that ended (any cause but {@link NotifyClient#close})
 * @param unsubscribedDropped events of a room or {@code b:all} the application does not hold (any
 *                          more), dropped: e.g. in flight when it unsubscribed
 * @param collapsedSkipped  durable events a {@code collapsed} frame stood in for (superseded during a
 *                          catch-up by a later event with the same collapse key, or muted for live by the
 *                          user's preferences): their seqs count as processed, the events themselves never
 *                          reach a listener
 */
public record ClientStats(long delivered, long duplicatesDropped, long resets, long connects, long disconnects,
                          long unsubscribedDropped, long collapsedSkipped) {
}
