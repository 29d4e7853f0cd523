package io.notify.client.internal;

import io.notify.client.reconnect.Disconnect;
import java.net.http.HttpHeaders;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Classifies handshake failures and reads retry hints, for both transports. */
final class Handshakes {

    private Handshakes() {
    }

    /** A failed handshake as a {@link Disconnect}: an HTTP status is a refusal, anything else unreachable. */
    static Disconnect classify(Throwable error, boolean websocket) {
        Throwable t = unwrap(error);
        if (t instanceof WebSocketHandshakeException h && h.getResponse() != null) {
            return new Disconnect.Refused(h.getResponse().statusCode(), retryAfter(h.getResponse().headers()), websocket,
                    h.getMessage());
        }
        return new Disconnect.Unreachable(rootMessage(t));
    }

    /** Retry-After in seconds (the gateway's form); an HTTP-date or garbage is ignored. */
    static Optional<Duration> retryAfter(HttpHeaders headers) {
        return headers.firstValue("Retry-After").map(String::trim)
                .filter(v -> !v.isEmpty() && v.length() <= 6 && v.chars().allMatch(c -> c >= '0' && c <= '9'))
                .map(v -> Duration.ofSeconds(Long.parseLong(v)));
    }

    static Throwable unwrap(Throwable t) {
        Throwable c = t;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        return c;
    }

    static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c.getClass().getSimpleName() + (c.getMessage() == null ? "" : ": " + c.getMessage());
    }
}
