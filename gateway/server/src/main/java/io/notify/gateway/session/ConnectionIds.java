package io.notify.gateway.session;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Connection ids unique within one node incarnation ({@code c-<salt>-<counter>}, base 36), valid
 * as registry members and welcome fields ({@code [A-Za-z0-9._-]}). The salt keeps ids of
 * consecutive starts apart in logs; the registry fences them by incarnation anyway.
 */
public final class ConnectionIds {

    private final String salt;
    private final AtomicLong counter = new AtomicLong();

    public ConnectionIds() {
        this.salt = Long.toString(Math.abs(new SecureRandom().nextLong() % 1_679_616L), 36);
    }

    public String next() {
        return "c-" + salt + "-" + Long.toString(counter.incrementAndGet(), 36);
    }
}
