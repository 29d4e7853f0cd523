package io.notify.gateway.auth;

import io.notify.gateway.auth.AuthResult.Authenticated;
import io.notify.gateway.auth.AuthResult.Rejected;
import io.notify.gateway.metrics.GatewayMetrics;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Connect tickets (docs/gateway.md, "Connect tickets"): a browser trades its JWT, sent in a header,
 * for a short-lived single-use ticket that its WebSocket or SSE URL carries instead of the JWT.
 *
 * <p>Guarantees: a ticket is 256 bits from {@link SecureRandom}, base64url without padding (43
 * characters, URL-safe). It is valid until {@code ttl} after issue or the token's own expiry,
 * whichever comes first, and is redeemed at most once: the first {@link #redeem} wins, later ones
 * are refused {@code ticket_reused}, also when the handshake that redeemed it failed afterwards.
 * A redeemed ticket yields exactly what the JWT gave ({@code sub} and expiry), so its connection
 * ends with 4001 when the token would have. Tickets live in this node's memory only: another node
 * answers {@code unknown_ticket}. At most {@code maxHeld} tickets are held; {@link #issue} refuses
 * beyond that. A ticket is remembered (redeemed or not) until one more {@code ttl} after its expiry,
 * so reuse and expiry are told apart from unknown tickets, then {@link #sweep} forgets it. Never logs
 * a ticket. Thread-safe and non-blocking (runs on I/O threads).
 */
public final class TicketStore {

    /** Bits of randomness in a ticket. */
    public static final int TICKET_BYTES = 32;
    /** No ticket this store issues is longer; longer values are refused without a lookup. */
    static final int TICKET_CHARS = 43;

    /** A ticket issued: its value, and how long it is valid. */
    public record Issued(String ticket, Duration expiresIn) {
        @Override
        public String toString() {
            return "Issued[ticket=REDACTED, expiresIn=" + expiresIn + "]";
        }
    }

    private record Entry(Authenticated user, long expiresAtMillis, boolean redeemed) {
    }

    private final Duration ttl;
    private final int maxHeld;
    private final Clock clock;
    private final GatewayMetrics metrics;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Entry> tickets = new ConcurrentHashMap<>();
    private final AtomicInteger held = new AtomicInteger();

    public TicketStore(Duration ttl, int maxHeld, Clock clock, GatewayMetrics metrics) {
        if (ttl.isNegative() || ttl.isZero() || maxHeld < 1) {
            throw new IllegalArgumentException("ticket ttl must be positive and maxHeld at least 1");
        }
        this.ttl = ttl;
        this.maxHeld = maxHeld;
        this.clock = clock;
        this.metrics = metrics;
        metrics.gauge("notify.gateway.tickets.held",
                "Connect tickets in the node's memory: outstanding, or redeemed/expired and remembered until swept", held::get);
    }

    /** A new ticket for {@code user}, or null when {@link #maxHeld} tickets are held already. */
    public Issued issue(Authenticated user) {
        if (held.incrementAndGet() > maxHeld) {
            held.decrementAndGet();
            return null;
        }
        long now = clock.millis();
        long expiresAt = Math.min(now + ttl.toMillis(), user.expiresAt().toEpochMilli());
        byte[] bytes = new byte[TICKET_BYTES];
        random.nextBytes(bytes);
        String ticket = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        tickets.put(ticket, new Entry(user, expiresAt, false));
        metrics.ticketIssued();
        return new Issued(ticket, Duration.ofMillis(Math.max(0, expiresAt - now)));
    }

    /**
     * Redeems {@code ticket}: the user and expiry of the token it was issued for, or why it is
     * refused ({@link AuthRejection#UNKNOWN_TICKET}, {@link AuthRejection#TICKET_EXPIRED},
     * {@link AuthRejection#TICKET_REUSED}). Either way the ticket cannot be redeemed again.
     */
    public AuthResult redeem(String ticket) {
        Entry e = ticket == null || ticket.length() > TICKET_CHARS ? null : tickets.get(ticket);
        if (e == null) {
            return refused(AuthRejection.UNKNOWN_TICKET, "unknown_ticket");
        }
        if (e.redeemed() || !tickets.replace(ticket, e, new Entry(e.user(), e.expiresAtMillis(), true))) {
            return refused(AuthRejection.TICKET_REUSED, "reused"); // already redeemed, or by a concurrent handshake just now
        }
        if (clock.millis() >= e.expiresAtMillis()) {
            return refused(AuthRejection.TICKET_EXPIRED, "expired");
        }
        metrics.ticketRedeemed();
        return e.user(); // the same user, expiry and rooms claim as the token it was issued for
    }

    private Rejected refused(AuthRejection reason, String label) {
        metrics.ticketRefused(label);
        return new Rejected(reason);
    }

    /** Forgets the tickets that expired more than one ttl ago; returns how many. */
    public int sweep() {
        long forgetBefore = clock.millis() - ttl.toMillis();
        int removed = 0;
        for (Iterator<Map.Entry<String, Entry>> it = tickets.entrySet().iterator(); it.hasNext(); ) {
            if (it.next().getValue().expiresAtMillis() <= forgetBefore) {
                it.remove();
                held.decrementAndGet();
                removed++;
            }
        }
        return removed;
    }

    /** Tickets held now (outstanding, or remembered until swept). */
    public int held() {
        return held.get();
    }

    public Duration ttl() {
        return ttl;
    }
}
