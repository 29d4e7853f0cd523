package io.notify.client.internal;

import io.notify.client.InboxListener;
import io.notify.client.NotifyListener;
import io.notify.client.TokenSupplier;
import io.notify.client.TransportMode;
import io.notify.client.store.PositionStore;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * A client's configuration, validated by {@link io.notify.client.NotifyClientBuilder}.
 *
 * @param http       the HTTP client for both transports; null = one of the client's own (HTTP/1.1)
 * @param random     the random source of backoff and jitter (seedable for tests)
 * @param device     the device id sent at connect and in marks ({@link DeviceIds})
 * @param inbox      the inbox listener; null: no unread estimate, state frames ignored
 */
public record ClientSettings(List<Endpoints> gateways, TokenSupplier token, TransportMode mode, boolean sseFallback,
                             PositionStore store, NotifyListener listener, Duration backoffBase, Duration backoffCap,
                             Duration promptly, Duration connectTimeout, Duration ackInterval, Duration maxRetryAfter,
                             RandomGenerator random, HttpClient http, String device, InboxListener inbox) {

    public ClientSettings {
        gateways = List.copyOf(gateways);
        if (gateways.isEmpty()) {
            throw new IllegalArgumentException("at least one gateway URL is required");
        }
        Objects.requireNonNull(token, "token supplier");
        Objects.requireNonNull(mode, "transport mode");
        Objects.requireNonNull(store, "position store");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(random, "random");
        DeviceIds.check(device);
        positive("connect timeout", connectTimeout);
        positive("ack interval", ackInterval);
        positive("backoff base", backoffBase);
        positive("backoff cap", backoffCap);
        Objects.requireNonNull(promptly, "prompt reconnect window");
        Objects.requireNonNull(maxRetryAfter, "max Retry-After");
        if (backoffCap.compareTo(backoffBase) < 0) {
            throw new IllegalArgumentException("backoff cap (" + backoffCap + ") must be at least the base (" + backoffBase + ")");
        }
        if (promptly.isNegative()) {
            throw new IllegalArgumentException("prompt reconnect window must not be negative");
        }
    }

    private static void positive(String what, Duration d) {
        Objects.requireNonNull(d, what);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(what + " must be positive, got " + d);
        }
    }
}
