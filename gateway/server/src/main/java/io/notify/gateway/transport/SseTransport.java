package io.notify.gateway.transport;

import io.notify.protocol.frame.CloseCode;
import io.notify.protocol.frame.SseCursor;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import io.undertow.server.HttpServerExchange;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.xnio.ChannelListener;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;
import org.xnio.channels.StreamSinkChannel;
import org.xnio.conduits.ConduitStreamSourceChannel;

/**
 * A Server-Sent Events response behind {@link Transport}, with what is SSE's own: started, it
 * writes the {@code retry:} hint and reports where the request said the client stands
 * ({@link SseStart}, as the client's resume); a positioned frame of a connection with rooms carries
 * the composite cursor of every stream as its {@code id:} ({@link #cursorId}), so the
 * browser's Last-Event-ID resumes them all. Frames are written with
 * {@link SseFraming} without blocking (a partial write parks the frame until the socket is
 * writable). Undertow writes the status line, the headers and the first frame (the retry hint);
 * once they are out, the transport takes the socket over ({@link ResponseTakeover}) and writes the
 * close-delimited body on it directly, so an idle stream holds its socket, this object and its
 * session, and nothing of Undertow's exchange (docs/gateway.md, "Where an idle connection's bytes
 * go"). Taken over, it reads the socket too: a client that closes is noticed at once, and one that
 * sends anything after its request (an SSE client sends nothing) is disconnected. Keep-alive
 * comments every {@code sse-keepalive} keep proxies from timing the stream out, and bound the
 * detection of a client gone without a FIN to about two intervals (the first write after it draws
 * the RST, the next fails). Closing writes, for a drain, a {@code retry:} hint of 0-1 s so browsers
 * spread their reconnects, then ends the stream; a client that cannot take even that is cut after
 * {@code CLOSE_TIMEOUT}.
 */
public final class SseTransport extends QueuedTransport implements ChannelListener<Channel> {

    private static final long CLOSE_TIMEOUT_MS = 5_000;

    private static final OutboundFrame KEEP_ALIVE = OutboundFrame.sseMeta(SseFraming.KEEP_ALIVE, "keep-alive");

    /** Where a taken-over stream's inbound bytes land: it only needs to see whether there are any. */
    private static final ThreadLocal<ByteBuffer> DISCARD = ThreadLocal.withInitial(() -> ByteBuffer.allocate(64));

    private final long keepAliveNanos;
    private SseStart start;  // until started: where the client stands
    private Duration retry;  // until started: the retry hint's value
    private long nextKeepAliveNanos; // the sweeper's, under the session's lock; 0 until the first tick
    // I/O thread only
    private HttpServerExchange exchange; // until the first frame is out and the takeover tried
    private Closeable connection;        // Undertow's HTTP connection, or the socket once taken over
    private StreamSinkChannel sink;      // the response channel, or the socket's
    private boolean writing;
    private CloseCode closeAfterWrite;

    /**
     * @param keepAlive how often a comment line is written (see the class comment)
     * @param retry     the {@code retry:} hint written first, how long a browser waits before it reconnects
     * @param start     where the request said the client stands ({@code Last-Event-ID}, {@code ?rooms=})
     */
    public SseTransport(HttpServerExchange exchange, OutboundQueue queue, Duration keepAlive, Duration retry, SseStart start) {
        super(queue, exchange.getIoThread());
        this.exchange = exchange;
        this.keepAliveNanos = keepAlive.toNanos();
        this.retry = retry;
        this.start = start;
        this.connection = exchange.getConnection();
        this.sink = exchange.getResponseChannel();
        exchange.addExchangeCompleteListener((ex, next) -> {
            closedBy();
            next.proceed();
        });
    }

    @Override
    public String kind() {
        return "sse";
    }

    @Override
    public boolean bidirectional() {
        return false;
    }

    /** The retry hint (the first frame: Undertow writes the headers with it), then the client's start to the listener. */
    @Override
    public void start() {
        send(OutboundFrame.sseMeta(SseFraming.retry(retry.toMillis()), null));
        SseStart at = start;
        start = null;
        retry = null;
        Listener listener = listener();
        if (listener != null) {
            listener.resume(at.positions(), at.fresh());
        }
    }

    /** With rooms, the frame's id is the composite cursor of every stream; else its own. */
    @Override
    public OutboundQueue.Offer send(OutboundFrame frame, Positions streams, StreamId stream, Position position) {
        String cursor = cursorId(streams, stream, position);
        return send(cursor == null ? frame : frame.withSseId(cursor));
    }

    /**
     * The composite cursor ({@link SseCursor}) of a connection that follows more than one stream, as
     * the {@code id:} of a frame that moves the client to {@code position} in {@code positioned}: each
     * stream at its position, {@code positioned} at {@code position} instead, a stream without one left
     * out; null when the connection follows only its own stream (the frame's own id says it all).
     */
    public static String cursorId(Transport.Positions streams, StreamId positioned, Position position) {
        int n = streams.streams();
        if (n <= 1) {
            return null;
        }
        StringBuilder cursor = new StringBuilder(32 * n);
        streams.forEach((stream, at) -> {
            Position p = stream.equals(positioned) ? position : at;
            if (p != null) {
                SseCursor.append(cursor, stream, p);
            }
        });
        return cursor.toString();
    }

    @Override
    public void tick(long nowNanos) {
        if (nextKeepAliveNanos == 0) {
            nextKeepAliveNanos = nowNanos + keepAliveNanos; // the first tick: one interval from now
        } else if (nowNanos - nextKeepAliveNanos >= 0) {
            nextKeepAliveNanos = nowNanos + keepAliveNanos;
            send(KEEP_ALIVE);
        }
    }

    @Override
    protected void write(List<OutboundFrame> frames, WriteCallback callback) {
        write(frames.get(0), callback); // one frame per write (maxGather 1): the headers go with the first
    }

    private void write(OutboundFrame frame, WriteCallback callback) {
        writing = true;
        writeAll(SseFraming.encode(frame), new WriteCallback() {
            @Override
            public void done() {
                writing = false;
                if (exchange != null) {
                    takeOver(); // the headers and the first frame are out
                }
                callback.done();
                runPendingClose();
            }

            @Override
            public void failed(Throwable error) {
                writing = false;
                callback.failed(error);
            }
        });
    }

    private void writeAll(ByteBuffer buffer, WriteCallback callback) {
        try {
            while (buffer.hasRemaining()) {
                if (sink.write(buffer) == 0) {
                    sink.getWriteSetter().set(ch -> {
                        ch.suspendWrites();
                        writeAll(buffer, callback);
                    });
                    sink.resumeWrites();
                    return;
                }
            }
            if (!sink.flush()) {
                sink.getWriteSetter().set(ch -> {
                    try {
                        if (ch.flush()) {
                            ch.suspendWrites();
                            callback.done();
                        }
                    } catch (IOException e) {
                        ch.suspendWrites();
                        callback.failed(e);
                    }
                });
                sink.resumeWrites();
                return;
            }
            callback.done();
        } catch (IOException | RuntimeException e) {
            callback.failed(e);
        }
    }

    private void takeOver() {
        StreamConnection taken = ResponseTakeover.detach(exchange, this);
        exchange = null;
        if (taken == null) {
            return; // stays Undertow's response; its end is reported by the exchange-complete listener
        }
        connection = taken;
        sink = taken.getSinkChannel();
        taken.getSourceChannel().setReadListener(this);
        taken.getSourceChannel().resumeReads();
    }

    /** A taken-over socket's events: readable (a close, or bytes no SSE client sends), or closed. */
    @Override
    public void handleEvent(Channel channel) {
        if (!(channel instanceof ConduitStreamSourceChannel source)) {
            closedBy(); // the socket closed
            return;
        }
        ByteBuffer buffer = DISCARD.get();
        buffer.clear();
        int n;
        try {
            n = source.read(buffer);
        } catch (IOException e) {
            n = -1;
        }
        if (n != 0) {
            source.suspendReads();
            abort(); // the client closed (-1), or sent bytes after its request
        }
    }

    private void runPendingClose() {
        CloseCode pending = closeAfterWrite;
        if (pending != null) {
            closeAfterWrite = null;
            closeChannel(pending, pending.reason());
        }
    }

    @Override
    protected void closeChannel(CloseCode code, String reason) {
        if (writing) {
            closeAfterWrite = code; // never interleave the tail with a half-written frame
            return;
        }
        io.executeAfter(this::abort, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        String tail = code == CloseCode.GOING_AWAY ? SseFraming.retry(ThreadLocalRandom.current().nextLong(0, 1001)) : "";
        writeAll(ByteBuffer.wrap(tail.getBytes(StandardCharsets.US_ASCII)), new WriteCallback() {
            @Override
            public void done() {
                closeSeen(code.code()); // the tail is out: the end that follows is the node's (ending the response may report the close at once)
                try {
                    sink.shutdownWrites();
                    if (!sink.flush()) {
                        sink.getWriteSetter().set(ch -> {
                            try {
                                if (ch.flush()) {
                                    ch.suspendWrites();
                                    closeSocket(); // the end is out
                                }
                            } catch (IOException e) {
                                abort();
                            }
                        });
                        sink.resumeWrites();
                    } else {
                        closeSocket(); // the end is out
                    }
                } catch (IOException e) {
                    abort();
                }
            }

            @Override
            public void failed(Throwable error) {
                abort();
            }
        });
    }

    @Override
    protected void abort() {
        closeSocket();
        closedBy();
    }

    private void closeSocket() {
        IoUtils.safeClose(connection);
    }
}
