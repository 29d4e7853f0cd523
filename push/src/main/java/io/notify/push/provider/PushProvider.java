package io.notify.push.provider;

import io.notify.protocol.push.PushRegistration;
import java.util.concurrent.CompletableFuture;

/**
 * One push service (Web Push, FCM, APNs) as the sender sees it: one message to one registered
 * device, answered by what the provider said. Implementations never complete exceptionally: a
 * network failure or a timeout is a {@link PushResult.Retry}. Thread-safe; {@link #close} releases
 * connections.
 */
public interface PushProvider extends AutoCloseable {

    /** {@code webpush}, {@code fcm} or {@code apns}: the registrations it takes ({@link PushRegistration#provider()}). */
    String name();

    /** Sends {@code message} to {@code to}, whose {@link PushRegistration#provider()} is {@link #name()}. */
    CompletableFuture<PushResult> send(PushRegistration to, PushMessage message);

    @Override
    default void close() {
    }
}
