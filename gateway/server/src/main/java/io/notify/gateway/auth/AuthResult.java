package io.notify.gateway.auth;

import java.time.Instant;

/** The outcome of verifying a handshake token: the user it names, or why it was refused. */
public sealed interface AuthResult {

    /** A valid token: {@code userId} is its {@code sub}; the connection must end at {@code expiresAt}. */
    record Authenticated(String userId, Instant expiresAt) implements AuthResult {
    }

    record Rejected(AuthRejection reason) implements AuthResult {
    }
}
