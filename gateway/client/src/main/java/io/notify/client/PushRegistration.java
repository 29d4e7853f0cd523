package io.notify.client;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One push registration of the user as the gateway shows it ({@link NotifyClient#registerPush},
 * {@link NotifyClient#listPushRegistrations}): never its keys or token.
 *
 * @param id          {@code pr_} and 22 base64url characters, derived from the address: the same
 *                    address registered again has the same id; {@link NotifyClient#unregisterPush} takes it
 * @param provider    where it is pushed through
 * @param createdAt   when it was first registered
 * @param endpoint    a Web Push registration's endpoint (empty for the others)
 * @param topic       an APNs registration's topic, the app's bundle id (empty for the others)
 * @param environment an APNs registration's environment (empty for the others)
 */
public record PushRegistration(String id, PushProvider provider, Instant createdAt, Optional<String> endpoint,
                               Optional<String> topic, Optional<PushAddress.ApnsEnvironment> environment) {

    /** A registration id: {@code pr_} and 22 base64url characters. */
    public static final Pattern ID = Pattern.compile("^pr_[A-Za-z0-9_-]{22}$");

    public PushRegistration {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(environment, "environment");
    }
}
