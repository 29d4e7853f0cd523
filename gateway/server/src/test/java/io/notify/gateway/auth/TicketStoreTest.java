package io.notify.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.gateway.auth.AuthResult.Authenticated;
import io.notify.gateway.auth.AuthResult.Rejected;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.devstack.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TicketStoreTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration TTL = Duration.ofSeconds(30);

    private final TestClock clock = new TestClock(T0);
    private final GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());
    private final Authenticated alice = new Authenticated("alice", T0.plus(Duration.ofHours(1)));

    private TicketStore store(int maxHeld) {
        return new TicketStore(TTL, maxHeld, clock, metrics);
    }

    private static AuthRejection reason(AuthResult r) {
        return r instanceof Rejected rejected ? rejected.reason() : null;
    }

    @Test
    void aTicketIsLongRandomAndUrlSafe() {
        TicketStore store = store(1000);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            String t = store.issue(alice).ticket();
            assertTrue(t.matches("[A-Za-z0-9_-]{43}"), t); // 256 bits, base64url, no padding
            assertTrue(seen.add(t), "never twice");
        }
        assertEquals(500, metrics.count("notify.gateway.tickets.issued"));
    }

    @Test
    void redeemedOnceGivesTheTokensUserAndExpiryThenIsRefusedAsReused() {
        TicketStore store = store(10);
        TicketStore.Issued issued = store.issue(alice);
        assertEquals(TTL, issued.expiresIn());
        assertEquals(alice, store.redeem(issued.ticket()), "the same sub and the same expiry as the JWT");
        assertEquals(AuthRejection.TICKET_REUSED, reason(store.redeem(issued.ticket())));
        assertEquals(AuthRejection.TICKET_REUSED, reason(store.redeem(issued.ticket())));
        assertEquals(1, metrics.count("notify.gateway.tickets.redeemed"));
        assertEquals(2, metrics.count("notify.gateway.tickets.refused", "reason", "reused"));
    }

    @Test
    void concurrentHandshakesWithOneTicket_exactlyOneWins() throws Exception {
        TicketStore store = store(10);
        String ticket = store.issue(alice).ticket();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<AuthResult>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                results.add(pool.submit(() -> {
                    go.await();
                    return store.redeem(ticket);
                }));
            }
            go.countDown();
            int won = 0;
            for (Future<AuthResult> f : results) {
                AuthResult r = f.get(10, TimeUnit.SECONDS);
                if (r instanceof Authenticated) {
                    won++;
                } else {
                    assertEquals(AuthRejection.TICKET_REUSED, reason(r));
                }
            }
            assertEquals(1, won);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void expiresAfterTheTtlAndIsForgottenOneTtlLater() {
        TicketStore store = store(10);
        String ticket = store.issue(alice).ticket();
        String late = store.issue(alice).ticket();
        clock.advance(TTL.minusMillis(1));
        assertEquals(alice, store.redeem(ticket), "valid up to the last millisecond");
        clock.advance(Duration.ofMillis(1));
        assertEquals(AuthRejection.TICKET_EXPIRED, reason(store.redeem(late)));
        assertEquals(AuthRejection.TICKET_REUSED, reason(store.redeem(late)), "spent by the refused handshake too");
        assertEquals(0, store.sweep(), "remembered for one more TTL");
        assertEquals(2, store.held());
        clock.advance(TTL);
        assertEquals(2, store.sweep());
        assertEquals(0, store.held());
        assertEquals(AuthRejection.UNKNOWN_TICKET, reason(store.redeem(ticket)));
        assertEquals(1, metrics.count("notify.gateway.tickets.refused", "reason", "expired"));
        assertEquals(1, metrics.count("notify.gateway.tickets.refused", "reason", "unknown_ticket"));
    }

    @Test
    void neverOutlivesItsToken() {
        TicketStore store = store(10);
        Authenticated shortLived = new Authenticated("bob", T0.plusSeconds(5));
        TicketStore.Issued issued = store.issue(shortLived);
        assertEquals(Duration.ofSeconds(5), issued.expiresIn());
        clock.advance(Duration.ofSeconds(5));
        assertEquals(AuthRejection.TICKET_EXPIRED, reason(store.redeem(issued.ticket())));
    }

    @Test
    void unknownForgedAndOversizedTicketsAreRefused() {
        TicketStore store = store(10);
        String real = store.issue(alice).ticket();
        String forged = (real.charAt(0) == 'A' ? 'B' : 'A') + real.substring(1);
        for (String t : List.of(forged, "", "x".repeat(10_000), real + "A")) {
            assertEquals(AuthRejection.UNKNOWN_TICKET, reason(store.redeem(t)));
        }
        assertEquals(AuthRejection.UNKNOWN_TICKET, reason(store.redeem(null)));
        assertEquals(alice, store.redeem(real), "the real one is untouched by the guesses");
    }

    @Test
    void boundedNumberHeld_refusesWhenFull_andFreesAfterTheSweep() {
        TicketStore store = store(3);
        for (int i = 0; i < 3; i++) {
            assertNotNull(store.issue(alice));
        }
        assertNull(store.issue(alice), "full");
        assertEquals(3, store.held());
        assertEquals(3.0, metrics.registry().get("notify.gateway.tickets.held").gauge().value());
        clock.advance(TTL.multipliedBy(2));
        assertEquals(3, store.sweep());
        assertNotNull(store.issue(alice), "room again");
        assertEquals(1, store.held());
    }

    @Test
    void neverPrintsATicket() {
        TicketStore.Issued issued = store(1).issue(alice);
        assertFalse(issued.toString().contains(issued.ticket()), issued.toString());
        assertNotEquals(-1, issued.toString().indexOf("REDACTED"));
    }
}
