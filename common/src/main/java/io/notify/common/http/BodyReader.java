package io.notify.common.http;

import io.undertow.io.Receiver;
import io.undertow.server.HttpServerExchange;
import java.util.Arrays;

/**
 * Reads a whole request body without blocking and without per-byte copying, enforcing a size
 * bound as it goes. Undertow's {@code receiveFullBytes} copies byte by byte into a synchronized
 * stream, which dominated ingest's CPU profile for 100 KB batches; this reader copies each chunk
 * once into an array sized from Content-Length when the client sent one.
 *
 * <p>Exactly one of the callbacks runs, on an I/O thread, inside Undertow's handler context (so
 * it may {@code dispatch}). A body over the bound is read to its end and dropped, up to {@value
 * #DRAIN_FACTOR}× the bound, before {@code tooLarge} runs: a client still sending when the server
 * closes the socket gets a reset instead of the answer (TCP drops what the server had not read), so
 * the 413 would be lost. A body larger still gets its answer at once. Either way the connection is
 * marked not persistent: it closes once the answer is written. The server's own entity-size limit
 * must sit above the drain bound, since Undertow closes the connection without an answer when that
 * limit is hit.
 */
public final class BodyReader {

    /** The complete body. */
    @FunctionalInterface
    public interface Complete {
        void handle(HttpServerExchange exchange, byte[] body);
    }

    /** The body is larger than the bound; the rest of it is not read. */
    @FunctionalInterface
    public interface TooLarge {
        void handle(HttpServerExchange exchange);
    }

    /** How far past the bound a refused body is still read (and dropped) so that its client reads the answer. */
    public static final int DRAIN_FACTOR = 4;

    private BodyReader() {
    }

    public static void read(HttpServerExchange exchange, int maxBytes, Complete complete, TooLarge tooLarge,
                            Receiver.ErrorCallback failed) {
        long declared = exchange.getRequestContentLength();
        long drainBound = (long) maxBytes * DRAIN_FACTOR;
        if (declared > maxBytes) {
            exchange.setPersistent(false);
            if (declared > drainBound) {
                tooLarge.handle(exchange);
            } else {
                exchange.getRequestReceiver().receivePartialBytes(
                        (ex, chunk, last) -> {
                            if (last) {
                                tooLarge.handle(ex);
                            }
                        },
                        (ex, error) -> failed.error(ex, error));
            }
            return;
        }
        Accumulator acc = new Accumulator(declared >= 0 ? (int) declared : 8 * 1024);
        exchange.getRequestReceiver().receivePartialBytes((ex, chunk, last) -> {
            if (acc.answered) {
                return;
            }
            if (acc.size + chunk.length > maxBytes || acc.draining) {
                // over the bound: drop the rest, and answer at its end (or at once past the drain bound)
                acc.draining = true;
                acc.buffer = null;
                acc.size += chunk.length;
                if (last || acc.size > drainBound) {
                    acc.answered = true;
                    if (!last) {
                        ex.getRequestReceiver().pause();
                    }
                    ex.setPersistent(false);
                    tooLarge.handle(ex);
                }
                return;
            }
            acc.append(chunk);
            if (last) {
                acc.answered = true;
                complete.handle(ex, acc.bytes());
            }
        }, (ex, error) -> {
            if (!acc.answered) {
                acc.answered = true;
                failed.error(ex, error);
            }
        });
    }

    private static final class Accumulator {
        byte[] buffer;
        long size;
        boolean draining;
        boolean answered;

        Accumulator(int initial) {
            buffer = new byte[Math.max(16, initial)];
        }

        void append(byte[] chunk) {
            int at = (int) size; // at most the bound, an int
            if (at + chunk.length > buffer.length) {
                buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, at + chunk.length));
            }
            System.arraycopy(chunk, 0, buffer, at, chunk.length);
            size += chunk.length;
        }

        byte[] bytes() {
            return size == buffer.length ? buffer : Arrays.copyOf(buffer, (int) size);
        }
    }
}
