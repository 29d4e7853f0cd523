package io.notify.client.internal;

import io.notify.client.reconnect.Disconnect;
import java.util.concurrent.CompletionStage;

/** What a {@link Transport} reports to the client's event loop. Calls may come from any thread. */
public interface TransportEvents {

    /**
     * One frame's text. The transport reads the next frame only after the returned stage
     * completes, so frames are handled one at a time, in order, and a slow listener slows reading.
     */
    CompletionStage<Void> frame(String text);

    /** A WebSocket is open (upgraded to notify.v1), reported before its first frame; SSE does not report it. */
    default void opened() {
    }

    /** The attempt failed or the connection ended, for {@code why}; called at most once. */
    void ended(Disconnect why);
}
