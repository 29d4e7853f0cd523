package io.notify.gateway.config;

import io.notify.common.config.Settings;
import java.time.Duration;

/**
 * The end-user inbox on a gateway node (docs/gateway.md, "Inbox API" and "Receipts"), keys
 * {@code notify.gateway.inbox.*}: the node answers at most {@code ratePerSecond} inbox requests a
 * second (bursts of {@code burst}), node-wide; a mark ({@code POST /v1/inbox/read|seen|archive})
 * waits at most {@code produceTimeout} for Kafka's acknowledgement; clients' {@code ack} frames are
 * coalesced per device and stream and written every {@code ackFlushInterval}, at most
 * {@code ackMaxPending} of them waiting (a new device and stream beyond that is dropped and counted).
 * The fixed bounds are constants here: a page holds 1..{@value #MAX_PAGE} events, a mark's body is at
 * most {@value #MAX_BODY_BYTES} bytes. Push registrations ({@code /v1/push/registrations}, docs/push.md)
 * are user requests too: they share the bucket and the produce timeout; {@code pushAllowPrivateEndpoints}
 * ({@code notify.gateway.push.allow-private-endpoints}, default false) lets a Web Push endpoint be
 * {@code http} or name a loopback or private host: for a local push service in dev and tests only;
 * {@code pushVapidPublicKey} ({@code notify.gateway.push.vapid-public-key}) is the push sender's VAPID
 * public key, which {@code GET /v1/push/config} hands browsers to subscribe with (null: Web Push is off).
 */
public record InboxSettings(double ratePerSecond, int burst, Duration produceTimeout, Duration ackFlushInterval, int ackMaxPending,
                            boolean pushAllowPrivateEndpoints, String pushVapidPublicKey) {

    /** Events per page at most (the query API's own bound). */
    public static final int MAX_PAGE = 100;
    /** Events per page when {@code limit} is not given. */
    public static final int DEFAULT_PAGE = 20;
    /** The largest body of a mark: 100 ids of 128 characters fit with room to spare. */
    public static final int MAX_BODY_BYTES = 16 * 1024;

    static InboxSettings load(Settings s) {
        return new InboxSettings(
                s.longIn("notify.gateway.inbox.rate-per-second", 500, 1, 1_000_000),
                s.intIn("notify.gateway.inbox.burst", 1000, 1, 10_000_000),
                s.duration("notify.gateway.inbox.produce-timeout", Duration.ofSeconds(5), Duration.ofMillis(100), Duration.ofMinutes(1)),
                s.duration("notify.gateway.inbox.ack-flush-interval", Duration.ofMillis(100), Duration.ofMillis(10), Duration.ofSeconds(10)),
                s.intIn("notify.gateway.inbox.ack-max-pending", 100_000, 1, 10_000_000),
                s.bool("notify.gateway.push.allow-private-endpoints", false),
                s.raw("notify.gateway.push.vapid-public-key"));
    }
}
