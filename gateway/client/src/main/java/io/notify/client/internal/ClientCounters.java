package io.notify.client.internal;

import io.notify.client.ClientStats;
import java.util.concurrent.atomic.AtomicLong;

/** What a client counts; written on its event thread, read from any thread as {@link ClientStats}. */
public final class ClientCounters {
    final AtomicLong delivered = new AtomicLong();
    final AtomicLong duplicatesDropped = new AtomicLong();
    final AtomicLong resets = new AtomicLong();
    final AtomicLong connects = new AtomicLong();
    final AtomicLong disconnects = new AtomicLong();
    final AtomicLong unsubscribedDropped = new AtomicLong();
    final AtomicLong collapsedSkipped = new AtomicLong();

    public ClientStats snapshot() {
        return new ClientStats(delivered.get(), duplicatesDropped.get(), resets.get(), connects.get(), disconnects.get(),
                unsubscribedDropped.get(), collapsedSkipped.get());
    }
}
