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
 * it may {@code dispatch}). A body over the bound is left unread, so the connection is marked not
 * persistent: it closes once the {@code tooLarge} answer is written. The server's own entity-size
 * limit must sit above the bound, since Undertow closes the connection without an answer when that
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

    private BodyReader() {
    }

    public static void read(HttpServerExchange exchange, int maxBytes, Complete complete, TooLarge tooLarge,
                            Receiver.ErrorCallback failed) {
        long declared = exchange.getRequestContentLength();
        if (declared > maxBytes) {
            exchange.setPersistent(false);
            tooLarge.handle(exchange);
            return;
        }
        Accumulator acc = new Accumulator(declared >= 0 ? (int) declared : 8 * 1024);
        exchange.getRequestReceiver().receivePartialBytes((ex, chunk, last) -> {
            if (acc.abandoned) {
                return;
            }
            if (acc.size + chunk.length > maxBytes) {
                acc.abandoned = true;
                ex.getRequestReceiver().pause();
                ex.setPersistent(false);
                tooLarge.handle(ex);
                return;
            }
            acc.append(chunk);
            if (last) {
                complete.handle(ex, acc.bytes());
            }
        }, (ex, error) -> {
            if (!acc.abandoned) {
                acc.abandoned = true;
                failed.error(ex, error);
            }
        });
    }

    private static final class Accumulator {
        byte[] buffer;
        int size;
        boolean abandoned;

        Accumulator(int initial) {
            buffer = new byte[Math.max(16, initial)];
        }

        void append(byte[] chunk) {
            if (size + chunk.length > buffer.length) {
                buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + chunk.length));
            }
            System.arraycopy(chunk, 0, buffer, size, chunk.length);
            size += chunk.length;
        }

        byte[] bytes() {
            return size == buffer.length ? buffer : Arrays.copyOf(buffer, size);
        }
    }
}
