package io.notify.gateway.transport;

import io.notify.gateway.admission.Limit;
import io.notify.gateway.delivery.OutboundFrame;
import io.notify.gateway.delivery.OutboundQueue;
import io.notify.schemas.protocol.CloseCode;
import io.undertow.websockets.core.AbstractReceiveListener;
import io.undertow.websockets.core.BufferedBinaryMessage;
import io.undertow.websockets.core.BufferedTextMessage;
import io.undertow.websockets.core.CloseMessage;
import io.undertow.websockets.core.WebSocketCallback;
import io.undertow.websockets.core.WebSocketChannel;
import io.undertow.websockets.core.WebSockets;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.xnio.IoUtils;

/**
 * A WebSocket connection (Undertow) behind {@link Transport}. Inbound: text frames are buffered up
 * to {@code maxFrameBytes} and handed to the inbound handler; the transport itself answers what
 * the session never sees — binary frames (1003), frames over the bound (1009), invalid UTF-8
 * (1007), broken framing (1002) — and reports each as a limit hit. A close frame it sends is
 * followed by a hard close after {@code closeTimeout} if the client does not answer.
 */
public final class WebSocketTransport extends QueuedTransport {

    /** What the session receives from a WebSocket client. */
    public interface Inbound {
        void text(String text);

        /** A WebSocket-level pong (browsers' automatic answers count as liveness too). */
        void pong();
    }

    private static final long CLOSE_TIMEOUT_MS = 5_000;
    private static final long BROKEN_CLOSE_DELAY_MS = 1_000;

    private final WebSocketChannel channel;
    private final int maxFrameBytes;
    private final Consumer<Limit> limitHit;
    private volatile Inbound inbound;

    public WebSocketTransport(WebSocketChannel channel, OutboundQueue queue, int maxFrameBytes, Consumer<Limit> limitHit) {
        super(queue, channel.getIoThread());
        this.channel = channel;
        this.maxFrameBytes = maxFrameBytes;
        this.limitHit = limitHit;
        channel.addCloseTask(ch -> closedBy(1006)); // the code sent or received was recorded on the way
    }

    /** Starts reading client frames into {@code inbound}. Call once, after the session exists. */
    public void start(Inbound handler) {
        this.inbound = handler;
        channel.getReceiveSetter().set(new Receiver());
        channel.resumeReceives();
    }

    @Override
    public String kind() {
        return "ws";
    }

    @Override
    public boolean bidirectional() {
        return true;
    }

    @Override
    protected void write(OutboundFrame frame, WriteCallback callback) {
        if (frame.kind() == OutboundFrame.Kind.SSE_META) {
            callback.done();
            return;
        }
        WebSockets.sendText(ByteBuffer.wrap(frame.payload()), channel, new WebSocketCallback<Void>() {
            @Override
            public void complete(WebSocketChannel ch, Void context) {
                callback.done();
            }

            @Override
            public void onError(WebSocketChannel ch, Void context, Throwable error) {
                callback.failed(error);
            }
        });
    }

    @Override
    protected void closeChannel(CloseCode code, String reason) {
        if (channel.isCloseFrameSent() || !channel.isOpen()) {
            abortLater(BROKEN_CLOSE_DELAY_MS);
            return;
        }
        WebSockets.sendClose(code.code(), reason, channel, new WebSocketCallback<Void>() {
            @Override
            public void complete(WebSocketChannel ch, Void context) {
                abortLater(CLOSE_TIMEOUT_MS); // normally the client's close frame ends it first
            }

            @Override
            public void onError(WebSocketChannel ch, Void context, Throwable error) {
                abort();
            }
        });
    }

    @Override
    protected void abort() {
        IoUtils.safeClose(channel);
    }

    private void abortLater(long ms) {
        channel.getIoThread().executeAfter(this::abort, ms, TimeUnit.MILLISECONDS);
    }

    private final class Receiver extends AbstractReceiveListener {

        @Override
        protected long getMaxTextBufferSize() {
            return maxFrameBytes;
        }

        @Override
        protected long getMaxBinaryBufferSize() {
            return maxFrameBytes;
        }

        @Override
        protected void onFullTextMessage(WebSocketChannel ch, BufferedTextMessage message) {
            Inbound in = inbound;
            if (in != null && isOpen()) {
                in.text(message.getData());
            }
        }

        @Override
        protected void onFullBinaryMessage(WebSocketChannel ch, BufferedBinaryMessage message) {
            message.getData().free();
            hit(Limit.BINARY_FRAME);
        }

        @Override
        protected void onFullPongMessage(WebSocketChannel ch, BufferedBinaryMessage message) {
            message.getData().free();
            Inbound in = inbound;
            if (in != null) {
                in.pong();
            }
        }

        @Override
        protected void onCloseMessage(CloseMessage cm, WebSocketChannel ch) {
            peerClosing(cm.getCode());
        }

        @Override
        protected void onError(WebSocketChannel ch, Throwable error) {
            Limit limit = Limit.ofReadFailure(error, ch.getCloseCode());
            if (limit == null) {
                abort(); // the connection broke: nothing to say to the client
            } else {
                hit(limit); // for 1009 Undertow has sent the close frame already; close() then only ends the channel
            }
        }
    }

    private void hit(Limit limit) {
        limitHit.accept(limit);
        close(limit.answer());
    }

}
