package io.notify.gateway.transport;

import io.notify.common.limits.TokenBucket;
import io.notify.gateway.disconnect.Disconnect;
import io.notify.protocol.frame.CloseCode;
import io.notify.protocol.frame.WsOpcode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.xnio.ChannelListener;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;
import org.xnio.conduits.ConduitStreamSinkChannel;
import org.xnio.conduits.ConduitStreamSourceChannel;

/**
 * A WebSocket connection behind {@link Transport}: RFC 6455 framing done here, directly on the
 * socket Undertow hands over after the upgrade, so an idle connection costs its socket, this
 * object and its decoder, and nothing of Undertow's HTTP connection or framed-channel machinery
 * (docs/gateway.md, "Where an idle connection's bytes go"). Inbound text messages (bounded by
 * {@link WsCodec#maxMessageBytes()}) go to the listener; the transport itself answers what
 * the session never sees — binary frames (1003), messages over the bound in bytes or frames (1009),
 * invalid UTF-8 (1007), broken framing and fragmented messages not complete in time (1002), frames
 * beyond the connection's frame bucket (4029: every frame counts, pings included) — and reports
 * each as a limit hit. Client pings are answered with pongs. A close frame it sends is followed by
 * the TCP close when the client's close frame arrives or the client closes TCP, or after
 * {@code CLOSE_TIMEOUT_MS} if neither happens; before sending one it reads what the client sent
 * meanwhile, so a client that already left is not told (and counted) a close it never sees. Everything but {@link #send}, {@link #close} and
 * {@link #tick} runs on the connection's I/O thread.
 *
 * <p>Over TLS ({@code notify.gateway.tls.*}) the socket handed over is Undertow's SSL connection,
 * and the conduits the upgrade gives back to it ("before HTTP wrapped them") are its SSL conduits:
 * what is read and written here is decrypted and encrypted below, nothing changes in this class
 * (GatewayTlsIT: a {@code wss://} client welcomed, events delivered, across a certificate reload).
 */
public final class WebSocketTransport extends QueuedTransport implements WsFrameDecoder.Sink, ChannelListener<Channel> {

    private static final long CLOSE_TIMEOUT_MS = 5_000;
    static final int MAX_GATHER = 32;
    private static final long BROKEN_CLOSE_DELAY_MS = 1_000;
    private static final int ABORTED = -2;

    private final StreamConnection connection;
    private final WsCodec codec;
    private final TokenBucket frames;
    private final Consumer<Disconnect> limitHit;
    private final WsFrameDecoder decoder = new WsFrameDecoder();
    // I/O thread only
    private ByteBuffer[] out;          // the frame being written; null when none
    private WriteCallback outDone;     // its completion; null for the close frame
    private ByteBuffer[] closeAfter;   // the close frame, waiting for the frame being written
    private boolean closeSent;
    private boolean closeReceived;

    /**
     * Takes over {@code connection} (just upgraded): its listeners are this transport's from now on.
     *
     * @param frames the connection's inbound frame rate ({@code inbound-rate}, {@code inbound-burst}): one token per frame
     * @param early bytes the client sent right behind its handshake, read with the request (null: none)
     */
    public WebSocketTransport(StreamConnection connection, OutboundQueue queue, WsCodec codec, TokenBucket frames,
                              Consumer<Disconnect> limitHit, byte[] early) {
        super(queue, connection.getIoThread());
        this.connection = connection;
        this.codec = codec;
        this.frames = frames;
        this.limitHit = limitHit;
        if (early != null && early.length > 0) {
            decoder.keep(early);
        }
        CloseListeners.takeOver(connection, this); // Undertow's HTTP connection lets go of the socket: nothing keeps it reachable
        connection.getSourceChannel().setReadListener(this);
        connection.getSinkChannel().setWriteListener(this);
    }

    /** Starts reading client frames into the listener ({@link Listener#text}, {@link Listener#pong}). Call once. */
    @Override
    public void start() {
        connection.getSourceChannel().resumeReads();
        if (decoder.holdsBytes()) {
            connection.getIoThread().execute(this::readable); // frames that came with the handshake
        }
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
    public void handleEvent(Channel channel) {
        if (channel instanceof ConduitStreamSourceChannel) {
            readable();
        } else if (channel instanceof ConduitStreamSinkChannel) {
            flush();
        } else {
            closedBy(); // the socket is closed; a close sent or received was recorded on the way
        }
    }

    private void readable() {
        ConduitStreamSourceChannel source = connection.getSourceChannel();
        for (int reads = 0; reads < 16 && !decoder.stopped(); reads++) {
            ByteBuffer buffer = codec.readBuffer();
            decoder.restoreInto(buffer);
            int n = readOrAbort(source, buffer);
            if (n == ABORTED) {
                return;
            }
            buffer.flip();
            decoder.decode(buffer, codec, frames, this);
            if (n < 0) {
                abort(); // the client went away without a close frame (1006)
                return;
            }
            if (n == 0) {
                return;
            }
        }
        if (decoder.stopped()) {
            stoppedReading(source);
        }
    }

    /**
     * Nothing is parsed after a close frame or a violation. After a violation the socket is still
     * read and what comes is discarded (our close frame is on its way, bounded by
     * {@code CLOSE_TIMEOUT_MS}), so a client that leaves after reading it frees the connection at
     * once instead of at the timeout; after the client's close frame reads stop.
     */
    private void stoppedReading(ConduitStreamSourceChannel source) {
        if (closeReceived) {
            source.suspendReads();
            return;
        }
        for (int reads = 0; reads < 16; reads++) {
            int n = readOrAbort(source, codec.readBuffer());
            if (n < 0) {
                abort(); // the client is done (RFC 6455 §7.1.1: the server closes TCP), or the read failed (closed already)
                return;
            }
            if (n == 0) {
                return;
            }
        }
    }

    /** A read into {@code buffer}: bytes read, -1 at the end of stream, or {@link #ABORTED} after a failed read (aborted). */
    private int readOrAbort(ConduitStreamSourceChannel source, ByteBuffer buffer) {
        try {
            return source.read(buffer);
        } catch (IOException e) {
            abort();
            return ABORTED;
        }
    }

    /** The sweeper's pass: a fragmented message open too long is ended on the I/O thread (1002). */
    @Override
    public void tick(long nowNanos) {
        if (decoder.messageOverdue(nowNanos, codec)) {
            connection.getIoThread().execute(this::expireMessage);
        }
    }

    private void expireMessage() {
        decoder.expire(codec.nanoTime(), codec, this);
        if (decoder.stopped()) {
            stoppedReading(connection.getSourceChannel());
        }
    }

    @Override
    public void text(String text) {
        Listener in = listener();
        if (in != null && isOpen()) {
            in.text(text);
        }
    }

    @Override
    public void ping(byte[] payload) {
        send(OutboundFrame.wsPong(payload));
    }

    @Override
    public void pong() {
        Listener in = listener();
        if (in != null) {
            in.pong();
        }
    }

    @Override
    public void closeFrame(int code) {
        closeReceived = true;
        if (closeSent) {
            // The two close frames crossed: ours is what the client sees, so it is the code counted.
            if (out == null && closeAfter == null) {
                abort(); // ours is out (and counted): the handshake is complete, the server closes TCP (RFC 6455 §7.1.1)
            }
            // else ours is still being written: closeWritten counts it and closes TCP once it is out
            return;
        }
        peerClosing(code);
        sendClose(code == 1005 ? CloseCode.NORMAL.code() : code, "");
    }

    @Override
    public void violation(Disconnect limit, String detail) {
        if (!isOpen()) {
            return; // closing already: the client gets that close, not this limit's answer
        }
        limitHit.accept(limit);
        close(limit.answer(), limit.reason(detail));
    }

    /** Queued frames one write gathers at most: a connection that is behind catches up with one writev for many frames. */
    @Override
    protected int maxGather() {
        return MAX_GATHER;
    }

    @Override
    protected void write(List<OutboundFrame> frames, WriteCallback callback) {
        int n = 0;
        for (int i = 0; i < frames.size(); i++) {
            n += frames.get(i).kind() == OutboundFrame.Kind.SSE_META ? 0 : 1;
        }
        if (n == 0 || closeSent) {
            callback.done();
            return;
        }
        ByteBuffer[] buffers = new ByteBuffer[2 * n];
        int b = 0;
        for (int i = 0; i < frames.size(); i++) {
            OutboundFrame frame = frames.get(i);
            if (frame.kind() != OutboundFrame.Kind.SSE_META) {
                int opcode = frame.kind() == OutboundFrame.Kind.WS_PONG ? WsOpcode.PONG : WsOpcode.TEXT;
                buffers[b++] = WsCodec.header(opcode, frame.size());
                buffers[b++] = ByteBuffer.wrap(frame.payload());
            }
        }
        out = buffers;
        outDone = callback;
        flush();
    }

    @Override
    protected void closeChannel(CloseCode code, String reason) {
        if (!closeSent && connection.isOpen()) {
            readable(); // what came meanwhile first: the client's own close frame, or the end of a client already gone (1006)
        }
        if (closeSent || !connection.isOpen()) {
            abortLater(BROKEN_CLOSE_DELAY_MS);
            return;
        }
        sendClose(code.code(), reason);
    }

    private void sendClose(int code, String reason) {
        closeSent = true;
        ByteBuffer payload = WsCodec.closePayload(code, reason);
        ByteBuffer[] frame = {WsCodec.header(WsOpcode.CLOSE, payload.remaining()), payload};
        if (out != null) {
            closeAfter = frame; // after the frame being written; queued frames were discarded
            return;
        }
        out = frame;
        flush();
    }

    /** Writes {@link #out} as far as the socket takes it; the write listener calls again when it can take more. */
    private void flush() {
        ConduitStreamSinkChannel sink = connection.getSinkChannel();
        try {
            while (out != null) {
                sink.write(out, 0, out.length);
                if (out[out.length - 1].hasRemaining() || !sink.flush()) {
                    sink.resumeWrites();
                    return;
                }
                WriteCallback done = outDone;
                ByteBuffer[] written = out;
                out = null;
                outDone = null;
                if (done == null) {
                    closeWritten(written[1].getShort(0) & 0xFFFF); // the close frame's payload starts with its code
                } else {
                    done.done(); // may start the next frame (a nested flush), or none when closing
                }
                if (out == null && closeAfter != null) {
                    out = closeAfter;
                    closeAfter = null;
                }
            }
            sink.suspendWrites();
        } catch (IOException e) {
            WriteCallback done = outDone;
            out = null;
            outDone = null;
            closeAfter = null;
            if (done != null) {
                done.failed(e);
            } else {
                abort();
            }
        }
    }

    private void closeWritten(int code) {
        closeSeen(code);
        if (closeReceived) {
            abort();
        } else {
            abortLater(CLOSE_TIMEOUT_MS); // normally the client's close frame ends it first
        }
    }

    @Override
    protected void abort() {
        IoUtils.safeClose(connection);
    }

    private void abortLater(long ms) {
        connection.getIoThread().executeAfter(this::abort, ms, TimeUnit.MILLISECONDS);
    }
}
