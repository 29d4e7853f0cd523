package io.notify.client.internal;

import io.notify.protocol.frame.AckFrame;
import io.notify.protocol.frame.ClientFrame;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.Position;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the acks the {@link FrameHandler} noted, one ack interval after the first since the last
 * send (one per stream, the latest seq): as {@code ack} frames over WebSocket, paced with the
 * client's other frames; over SSE, which sends no frames, the user's stream by
 * {@code POST /v1/inbox/ack} (rooms' acks are only metrics). Best effort: a failed one is made good
 * by the next ack or the next welcome's re-ack. Loop thread only.
 */
final class AckSender {

    private static final Logger LOG = LoggerFactory.getLogger(AckSender.class);

    private final FrameHandler frames;
    private final InboxHttp inbox;
    private final LoopThreads threads;
    private final Duration interval;
    private final Supplier<Transport> transport;
    private final Consumer<ClientFrame> sendPaced;
    private ScheduledFuture<?> timer;

    AckSender(FrameHandler frames, InboxHttp inbox, LoopThreads threads, Duration interval, Supplier<Transport> transport,
              Consumer<ClientFrame> sendPaced) {
        this.frames = frames;
        this.inbox = inbox;
        this.threads = threads;
        this.interval = interval;
        this.transport = transport;
        this.sendPaced = sendPaced;
    }

    /** The acks noted so far go out after the ack interval, unless a send is already due. */
    void schedule() {
        if (timer == null) {
            timer = threads.schedule(() -> {
                timer = null;
                flush();
            }, interval);
        }
    }

    /** The connection dropped: nothing is sent for it (the next welcome acks the position again). */
    void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private void flush() {
        Transport t = transport.get();
        if (t == null) {
            return;
        }
        if (t.canSend()) {
            frames.takeAcks().forEach(sendPaced);
            return;
        }
        for (AckFrame ack : frames.takeAcks()) {
            if (ack.stream().isUser()) {
                String epoch = frames.position(ack.stream()).map(Position::epoch).orElse(null);
                inbox.mark(ReceiptKind.ACK, ack.seq(), null, epoch).exceptionally(error -> {
                    LOG.debug("ack over HTTP failed; the next one or the next welcome makes it good: {}", error.toString());
                    return null;
                });
            }
        }
    }
}
