package io.notify.gateway.auth;

import io.notify.gateway.rooms.RoomPatterns;
import java.time.Instant;

/** The outcome of verifying a handshake token: the user it names, or why it was refused. */
public sealed interface AuthResult {

    /**
     * A valid token: {@code userId} is its {@code sub}; the connection must end at {@code expiresAt};
     * {@code rooms} is its {@code rooms} claim, the rooms it may join beyond the public ones (null:
     * the token has no such claim).
     */
    record Authenticated(String userId, Instant expiresAt, RoomPatterns rooms) implements AuthResult {

        /** A token without a rooms claim. */
        public Authenticated(String userId, Instant expiresAt) {
            this(userId, expiresAt, null);
        }
    }

    record Rejected(AuthRejection reason) implements AuthResult {
    }
}
