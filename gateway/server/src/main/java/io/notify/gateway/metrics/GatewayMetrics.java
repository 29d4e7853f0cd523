package io.notify.gateway.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.notify.protocol.frame.CloseCode;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Every meter of a gateway node, in one place. Prometheus names (all prefixed {@code notify_gateway_}):
 * {@code connections{transport}} (gauge), {@code handshakes_total{transport}},
 * {@code handshake_rejections_total{transport,reason}}, {@code limit_hits_total{limit}},
 * {@code closes_total{transport,code}} (a client's own codes by class), {@code events_delivered_total{class,path}},
 * {@code delivery_latency_seconds} (histogram: event ingestedAt → written to the socket, live path),
 * {@code hop_latency_seconds{hop}} (histogram per pipeline hop of a live event, from its trace headers),
 * {@code events_replayed_total}, {@code duplicates_dropped_total}, {@code resets_total{reason}},
 * {@code queue_overflows_total{action}}, {@code gap_fills_total}, {@code rechecks_total}, {@code recheck_found_total}, {@code anchor_unknown_total}, {@code query_requests_total{outcome}},
 * {@code query_latency_seconds}, {@code resume_retries_total}, {@code delivery_messages_total{outcome}}, {@code recalled_frames_total}, {@code recalls_not_noted_total},
 * {@code acks_total}, {@code registry_failures_total{op}}, {@code drain_remaining} (gauge),
 * {@code drain_closed_total}, {@code resume_batch_size} (summary: streams per batched query request),
 * {@code resume_batch_bounds_total{bound}}, {@code resume_fetches_coalesced_total}, {@code resume_queue_depth} and {@code resume_batches_in_flight}
 * (gauges), and with a JWKS URL {@code jwks_refreshes_total{trigger}}, {@code jwks_fetch_failures_total{trigger}},
 * {@code jwks_refetches_limited_total}, {@code jwks_expirations_total} and {@code jwks_keys} (gauge); connect tickets:
 * {@code tickets_issued_total}, {@code tickets_redeemed_total}, {@code tickets_refused_total{reason}} and
 * {@code tickets_held} (gauge); the inbox's meters are {@link InboxMetrics}.
 * Counters never block; safe from any thread.
 */
public final class GatewayMetrics {

    private final MeterRegistry registry;
    private final ConcurrentMap<String, Counter> counters = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, AtomicLong> connections = new ConcurrentHashMap<>();
    // Meters of the per-frame path, looked up once: a broadcast counts 100,000+ frames/s, and building the
    // lookup key per call was a visible share of the delivery thread (docs/BENCHMARKS.md, "Rooms and broadcast")
    private final Counter deliveredDurableLive;
    private final Counter deliveredEphemeralLive;
    private final Counter deliveryMessagesDelivered;
    private final Counter deliveryMessagesNoConnection;
    private final HopLatency latency;
    private final Timer queryLatency;
    private final DistributionSummary resumeBatchSize;
    private final AtomicLong drainRemaining = new AtomicLong();
    private final InboxMetrics inbox;

    public GatewayMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.latency = new HopLatency(registry);
        this.queryLatency = Timer.builder("notify.gateway.query.latency")
                .description("Round trip of one query API request (resume and gap fill)")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
        this.resumeBatchSize = DistributionSummary.builder("notify.gateway.resume.batch.size")
                .description("Streams per batched query API request (resume batching)")
                .register(registry);
        Gauge.builder("notify.gateway.drain.remaining", drainRemaining, AtomicLong::get)
                .description("Connections still open while the node drains").register(registry);
        for (String t : new String[]{"ws", "sse"}) {
            connectionGauge(t);
        }
        this.deliveredDurableLive = deliveredCounter(true, false);
        this.deliveredEphemeralLive = deliveredCounter(false, false);
        this.deliveryMessagesDelivered = deliveryMessageCounter("delivered");
        this.deliveryMessagesNoConnection = deliveryMessageCounter("no_connection");
        this.inbox = new InboxMetrics(this);
    }

    /** The end-user inbox's meters: its requests, receipts and state frames. */
    public InboxMetrics inbox() {
        return inbox;
    }

    public MeterRegistry registry() {
        return registry;
    }

    private AtomicLong connectionGauge(String transport) {
        return connections.computeIfAbsent(transport, t -> {
            AtomicLong value = new AtomicLong();
            Gauge.builder("notify.gateway.connections", value, AtomicLong::get)
                    .description("Open client connections").tag("transport", t).register(registry);
            return value;
        });
    }

    Counter counter(String name, String description, String... tags) {
        String key = name + String.join("|", tags);
        Counter c = counters.get(key);
        if (c == null) {
            c = counters.computeIfAbsent(key, k -> Counter.builder(name).description(description).tags(tags).register(registry));
        }
        return c;
    }

    public void connectionOpened(String transport) {
        connectionGauge(transport).incrementAndGet();
        counter("notify.gateway.handshakes", "Handshakes accepted", "transport", transport).increment();
    }

    /** Counts the close before the gauge drops: whoever sees the gauge at 0 sees every close counted. */
    public void connectionClosed(String transport, int code) {
        counter("notify.gateway.closes", "Connections closed, by close code (1006: dropped without a close frame;"
                        + " a client's own codes by class: 3xxx, 4xxx, other)",
                "transport", transport, "code", closeCodeLabel(code)).increment();
        connectionGauge(transport).decrementAndGet();
    }

    /**
     * The {@code code} label of a close: the code itself when the protocol defines it ({@link CloseCode})
     * or it is 1005/1006 (no status, dropped); otherwise its class, since a client may close with any
     * code in 3000-4999 and a label per code would be a series per client whim.
     */
    static String closeCodeLabel(int code) {
        if (CloseCode.of(code).isPresent() || code == 1005 || code == 1006) {
            return Integer.toString(code);
        }
        if (code >= 3000 && code <= 3999) {
            return "3xxx";
        }
        return code >= 4000 && code <= 4999 ? "4xxx" : "other";
    }

    /** A refused handshake; reason is a stable slug (rate_limited, draining, origin, unauthenticated, ...). */
    public void handshakeRejected(String transport, String reason) {
        counter("notify.gateway.handshake.rejections", "Handshakes refused, by reason",
                "transport", transport, "reason", reason).increment();
    }

    /** The node stopped accepting connections because its I/O threads lag (AcceptGovernor). */
    public void acceptSuspended() {
        counter("notify.gateway.accept.suspensions", "Times the node stopped accepting because its I/O threads lagged").increment();
    }

    /**
     * A per-connection limit was hit, named by its slug ({@code disconnect.Disconnect#slug()}, e.g.
     * {@code missed_pongs}); the limit is then answered with its close code or status.
     */
    public void limitHit(String limit) {
        counter("notify.gateway.limit.hits", "Limits hit, by limit", "limit", limit).increment();
    }

    private Counter deliveredCounter(boolean durable, boolean replay) {
        return counter("notify.gateway.events.delivered", "Event frames handed to client connections",
                "class", durable ? "durable" : "ephemeral", "path", replay ? "replay" : "live");
    }

    private Counter deliveryMessageCounter(String outcome) {
        return counter("notify.gateway.delivery.messages", "Node-topic records consumed, by outcome", "outcome", outcome);
    }

    public void delivered(boolean durable, boolean replay) {
        if (!replay) {
            deliveredLive(durable, 1);
            return;
        }
        deliveredCounter(durable, true).increment();
        counter("notify.gateway.events.replayed", "Durable events sent from the query API (resume and gap fill)").increment();
    }

    /** {@code n} live event frames handed to connections (one delivery message's local fan-out, counted once). */
    public void deliveredLive(boolean durable, int n) {
        if (n > 0) {
            (durable ? deliveredDurableLive : deliveredEphemeralLive).increment(n);
        }
    }

    /**
     * The hops of one live event up to the node topic's poll (ingest .. node_topic): the same for every
     * frame of its fan-out, so a delivery message records them once, whatever the number of connections.
     */
    public void upstreamHops(HopStamps h) {
        latency.upstream(h);
    }

    /**
     * A frame was written: its delivery latency ({@code ingestedAtMs} < 0: not an event) and the hops
     * that end at the write, dispatch (polled to written) and total (accept to written), when it has stamps.
     */
    public void written(long ingestedAtMs, HopStamps h, Clock clock) {
        latency.written(ingestedAtMs, h, clock);
    }

    public void duplicatesDropped(int n) {
        if (n > 0) {
            counter("notify.gateway.duplicates.dropped", "Durable events not sent because the connection already had them").increment(n);
        }
    }

    public void reset(String reason) {
        counter("notify.gateway.resets", "Reset frames sent, by reason", "reason", reason).increment();
    }

    /** A fetch found the inbox behind the position the live path reached (retried, not reset; see StreamSync). */
    public void inboxBehind() {
        counter("notify.gateway.inbox.behind", "Fetches that found the inbox behind the live position, retried instead of reset")
                .increment();
    }

    /** action: coalesced (ephemeral replaced by a newer one), dropped (ephemeral), closed (durable: 4008). */
    public void queueOverflow(String action) {
        counter("notify.gateway.queue.overflows", "Outbound queue overflows, by action", "action", action).increment();
    }

    /** Durable events of one fetched page left out of a catch-up, superseded by a later event (sent inside collapsed frames). */
    public void collapsed(int events) {
        if (events > 0) {
            counter("notify.gateway.collapsed.events",
                    "Durable events left out of catch-up pages because a later event of the page with the same type and collapse key supersedes them")
                    .increment(events);
        }
    }

    /** {@code n} {@code recalled} frames handed to connections (one delivery message's fan-out, counted once). */
    public void recalledFrames(int n) {
        if (n > 0) {
            counter("notify.gateway.recalled.frames", "Recalled frames (a producer took an event back) handed to client connections")
                    .increment(n);
        }
    }

    /** A recall of a seq not sent yet that a stream could not note (it holds {@code StreamSync.MAX_RECALLED_AHEAD}). */
    public void recallsNotNoted() {
        counter("notify.gateway.recalls.not.noted",
                "Recalls of seqs not sent yet past the bound a stream notes: such an event, if it still comes live, is sent with its content")
                .increment();
    }

    public void gapFill() {
        counter("notify.gateway.gap.fills", "Live gaps detected and filled from the query API").increment();
    }

    /** The head could not be read before a welcome: a fresh start there begins at the first live event. */
    public void anchorUnknown() {
        counter("notify.gateway.anchor.unknown", "Connections welcomed without an anchor (query API unavailable)").increment();
    }

    /** A recheck asked the inbox what follows a live stream's position. */
    public void recheck() {
        counter("notify.gateway.rechecks", "Rechecks of live streams against the inbox").increment();
    }

    /** Events a recheck found that no live path had brought (each one a routing miss caught). */
    public void recheckFound(int events) {
        if (events > 0) {
            counter("notify.gateway.recheck.found", "Events found by rechecks that never arrived live").increment(events);
        }
    }

    public void queryRequest(String outcome, long nanos) {
        counter("notify.gateway.query.requests", "Query API requests, by outcome", "outcome", outcome).increment();
        queryLatency.record(Duration.ofNanos(nanos));
    }

    /** One batched query API request of {@code streams} streams was sent. */
    public void resumeBatch(int streams) {
        resumeBatchSize.record(streams);
    }

    /**
     * A bound of resume batching was hit. bound: queue_full (fetch refused, the session retries),
     * in_flight (a fetch queued while every request slot was busy), max_batch (a batch sent at its
     * maximum size), queue_wait (a fetch failed after waiting longer than the timeout in the queue),
     * timeout (a batch request unanswered within the timeout: its fetches failed).
     */
    public void resumeBatchBound(String bound, int n) {
        if (n > 0) {
            counter("notify.gateway.resume.batch.bounds", "Resume batching bounds hit, by bound", "bound", bound).increment(n);
        }
    }

    /** {@code n} fetches went as an identical fetch's entry of a batch request and share its answer. */
    public void resumeCoalesced(int n) {
        if (n > 0) {
            counter("notify.gateway.resume.fetches.coalesced",
                    "Fetches that shared an identical fetch's entry of a batched query API request").increment(n);
        }
    }

    public void resumeRetry() {
        counter("notify.gateway.resume.retries", "Query API fetches retried after a failure").increment();
    }

    /** outcome: delivered (to >= 1 local connection), no_connection, poison (unreadable record), expired (an ephemeral event past its expiry). */
    public void deliveryMessage(String outcome) {
        switch (outcome) {
            case "delivered" -> deliveryMessagesDelivered.increment();
            case "no_connection" -> deliveryMessagesNoConnection.increment();
            default -> deliveryMessageCounter(outcome).increment();
        }
    }

    /**
     * A subscribe or unsubscribe, by outcome: {@code subscribed}, {@code repeated} (already subscribed),
     * {@code unsubscribed}, {@code refused_forbidden}, {@code refused_limit}, {@code refused_bad_name}.
     */
    public void subscription(String outcome) {
        counter("notify.gateway.subscription.requests", "Subscribe and unsubscribe requests, by outcome", "outcome", outcome)
                .increment();
    }

    /** A user's return to a presence room within the linger: its leave and this join were not announced. */
    public void presenceCoalesced() {
        counter("notify.gateway.presence.coalesced",
                "Presence leave-and-rejoin pairs within the linger, neither announced nor written to the registry").increment();
    }

    /** A presence request sent to the registry. */
    public void presenceRequest() {
        counter("notify.gateway.presence.requests", "Presence requests answered from the registry").increment();
    }

    /** A presence join/leave event the node could not publish (dropped: ephemeral). */
    public void announceFailure() {
        counter("notify.gateway.announce.failures", "Presence join/leave events that could not be published").increment();
    }

    public void ack() {
        counter("notify.gateway.acks", "Client ack frames received").increment();
    }

    /** A connection closed with 4010 at the end of its lifetime (max-connection-lifetime). */
    public void recycled() {
        counter("notify.gateway.recycled", "Connections closed with 4010 at the end of their maximum lifetime").increment();
    }

    public void registryFailure(String op) {
        counter("notify.gateway.registry.failures", "Registry register/unregister calls that failed or timed out", "op", op).increment();
    }

    /**
     * A JWKS fetched from {@code jwt.jwks-url} replaced the keys in force. trigger: startup, scheduled
     * (the refresh interval, or a retry after a failure), unknown_kid (a token named a kid no key had).
     */
    public void jwksRefreshed(String trigger) {
        counter("notify.gateway.jwks.refreshes", "JWKS fetches that replaced the keys in force, by trigger", "trigger", trigger).increment();
    }

    /** A JWKS fetch failed (unreachable, HTTP error, not a JWK set, no usable key); the keys in force stay. */
    public void jwksFetchFailed(String trigger) {
        counter("notify.gateway.jwks.fetch.failures", "JWKS fetches that failed, by trigger", "trigger", trigger).increment();
    }

    /** A token named an unknown kid while the refetch rate limit was closed: no fetch. */
    public void jwksRefetchLimited() {
        counter("notify.gateway.jwks.refetches.limited", "Unknown kids that caused no JWKS fetch (rate limit)").increment();
    }

    /** The JWKS keys reached jwks-cache-ttl without a successful fetch and were dropped: tokens are refused. */
    public void jwksExpired() {
        counter("notify.gateway.jwks.expirations", "Times the JWKS keys expired (no successful fetch within the cache TTL)").increment();
    }

    /** A connect ticket was issued (POST /v1/tickets). */
    public void ticketIssued() {
        counter("notify.gateway.tickets.issued", "Connect tickets issued").increment();
    }

    /** A handshake redeemed a connect ticket. */
    public void ticketRedeemed() {
        counter("notify.gateway.tickets.redeemed", "Connect tickets redeemed by a handshake").increment();
    }

    /** A handshake presented a ticket that was refused; reason: unknown_ticket, expired, reused. */
    public void ticketRefused(String reason) {
        counter("notify.gateway.tickets.refused", "Connect tickets refused at a handshake, by reason", "reason", reason).increment();
    }

    public void drainRemaining(long remaining) {
        drainRemaining.set(remaining);
    }

    public void drainClosed() {
        counter("notify.gateway.drain.closed", "Connections closed by a drain").increment();
    }

    public void gauge(String name, String description, Supplier<Number> value) {
        Gauge.builder(name, value).description(description).register(registry);
    }

    /** Current value of a counter (tests and the drain report); 0 when it was never incremented. */
    public double count(String name, String... tags) {
        Counter c = counters.get(name + String.join("|", tags));
        return c == null ? 0 : c.count();
    }
}
