package io.notify.gateway.transport;

import io.notify.schemas.protocol.CloseCode;
import io.undertow.server.HttpServerExchange;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.xnio.IoUtils;
import org.xnio.channels.StreamSinkChannel;

/**
 * A Server-Sent Events response behind {@link Transport}: frames are written with
 * {@link SseFraming} to the response channel without blocking (a partial write parks the frame
 * until the socket is writable). A closed client is noticed on a write (Undertow does not watch the
 * read side of a response in progress), so keep-alive comments every {@code sse-keepalive} bound
 * the detection to about two intervals: the first write after a close draws the RST, the next fails. Closing writes, for a drain, a {@code retry:} hint of 0-1 s so browsers spread
 * their reconnects, then ends the stream; a client that cannot take even that is cut after
 * {@code CLOSE_TIMEOUT}.
 */
public final class SseTransport extends QueuedTransport {

    private static final long CLOSE_TIMEOUT_MS = 5_000;

    private static final OutboundFrame KEEP_ALIVE = OutboundFrame.sseMeta(SseFraming.KEEP_ALIVE, "keep-alive");

    private final HttpServerExchange exchange;
    private final StreamSinkChannel sink;
    private final long keepAliveNanos;
    private long nextKeepAliveNanos; // the sweeper's, under the session's lock; 0 until the first tick
    // I/O thread only
    private boolean writing;
    private CloseCode closeAfterWrite;

    /**
     * @param keepAlive how often a comment line is written: Undertow notices a closed SSE client
     *                  only when it writes, so this bounds the detection to about two intervals
     */
    public SseTransport(HttpServerExchange exchange, OutboundQueue queue, Duration keepAlive) {
        super(queue, exchange.getIoThread());
        this.exchange = exchange;
        this.keepAliveNanos = keepAlive.toNanos();
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
    protected void write(OutboundFrame frame, WriteCallback callback) {
        writing = true;
        writeAll(SseFraming.encode(frame), new WriteCallback() {
            @Override
            public void done() {
                writing = false;
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
        exchange.getIoThread().executeAfter(this::abort, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        String tail = code == CloseCode.GOING_AWAY ? SseFraming.retry(ThreadLocalRandom.current().nextLong(0, 1001)) : "";
        writeAll(ByteBuffer.wrap(tail.getBytes(StandardCharsets.US_ASCII)), new WriteCallback() {
            @Override
            public void done() {
                try {
                    sink.shutdownWrites();
                    if (!sink.flush()) {
                        sink.getWriteSetter().set(ch -> {
                            try {
                                if (ch.flush()) {
                                    ch.suspendWrites();
                                    ended(code);
                                }
                            } catch (IOException e) {
                                abort();
                            }
                        });
                        sink.resumeWrites();
                    } else {
                        ended(code);
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

    /** The stream's end is written: the client saw the node end it (counted with {@code code}). */
    private void ended(CloseCode code) {
        closeSeen(code.code());
        IoUtils.safeClose(exchange.getConnection());
    }

    @Override
    protected void abort() {
        IoUtils.safeClose(exchange.getConnection());
        closedBy();
    }
}
