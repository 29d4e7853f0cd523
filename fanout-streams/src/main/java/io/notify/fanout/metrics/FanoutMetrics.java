package io.notify.fanout.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.protocol.stream.UndeliveredReason;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The fan-out topology's meters, shared by every stream thread (Micrometer counters are
 * thread-safe). Prometheus names:
 * <ul>
 *   <li>{@code notify_fanout_records_in_total} — records read from notify.events</li>
 *   <li>{@code notify_fanout_dlq_total{kind}} — records sent to notify.events.dlq, by DlqHeaders kind</li>
 *   <li>{@code notify_fanout_dedup_hits_total} — events dropped as re-sends of an id seen within the window</li>
 *   <li>{@code notify_fanout_recipients_total{path}} — recipient copies of accepted events: path = local
 *       (sequenced in the task that read the event) | repartition (through the by-stream topic)</li>
 *   <li>{@code notify_fanout_sequenced_total} — durable (stream, event) pairs given a position</li>
 *   <li>{@code notify_fanout_inbox_trimmed_total{bound}} — inbox entries deleted, bound = count | age</li>
 *   <li>{@code notify_fanout_deliveries_total} — DeliveryMessages written to node topics</li>
 *   <li>{@code notify_fanout_undelivered_total{reason}} — UndeliveredEvents written, by reason</li>
 *   <li>{@code notify_fanout_ephemeral_dropped_total{reason}} — ephemeral events that reached no node</li>
 *   <li>{@code notify_fanout_stale_removals_total} — stale registry members the router asked to remove</li>
 *   <li>{@code notify_fanout_catch_up_commits_total} — commits asked for because a stream thread had processed
 *       everything its last poll returned ({@code CatchUpCommit}); the rest come at the commit interval</li>
 *   <li>{@code notify_fanout_node_topic_missing_total{stage}} — deliveries skipped because the node topic
 *       does not exist; stage = route (caught before sending) | produce (caught by the production handler)</li>
 * </ul>
 * Under exactly_once_v2 a counter may count a record twice when its transaction aborts and the
 * record is reprocessed; the topics themselves never hold the duplicate.
 */
public final class FanoutMetrics {

    private final MeterRegistry registry;
    private final Counter recordsIn;
    private final Counter dedupHits;
    private final Counter sequenced;
    private final Counter deliveries;
    private final Counter staleRemovals;
    private final Counter catchUpCommits;
    private final Counter localRecipients;
    private final Counter repartitionedRecipients;
    private final ConcurrentMap<String, Counter> tagged = new ConcurrentHashMap<>();
    private final Timer fallbackLateness;

    public FanoutMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.recordsIn = Counter.builder("notify.fanout.records.in")
                .description("Records read from notify.events").register(registry);
        this.dedupHits = Counter.builder("notify.fanout.dedup.hits")
                .description("Events dropped because their id was seen within the dedup window").register(registry);
        this.sequenced = Counter.builder("notify.fanout.sequenced")
                .description("Durable events given a position in a stream").register(registry);
        this.deliveries = Counter.builder("notify.fanout.deliveries")
                .description("DeliveryMessages written to gateway node topics").register(registry);
        this.staleRemovals = Counter.builder("notify.fanout.stale.removals")
                .description("Stale registry members the router asked the registry to remove").register(registry);
        this.catchUpCommits = Counter.builder("notify.fanout.catch.up.commits")
                .description("Commits asked for because a stream thread had processed everything its last poll returned")
                .register(registry);
        String recipients = "Recipient copies of accepted events, by path: local (sequenced where read) or repartition";
        this.localRecipients = Counter.builder("notify.fanout.recipients").tag("path", "local").description(recipients)
                .register(registry);
        this.repartitionedRecipients = Counter.builder("notify.fanout.recipients").tag("path", "repartition")
                .description(recipients).register(registry);
        this.fallbackLateness = Timer.builder("notify.fanout.fallback.lateness")
                .description("How long after it was due each offline fallback was decided (the timer's precision)")
                .publishPercentileHistogram() // Prometheus histogram buckets: quantiles come from them
                // decided up to a check interval (1 s; at most 1 min) plus a commit late, later when runs are cut short
                .minimumExpectedValue(java.time.Duration.ofMillis(1))
                .maximumExpectedValue(java.time.Duration.ofMinutes(2))
                .register(registry);
    }

    /** Meters on a private in-memory registry: for tests and tools that do not export metrics. */
    public static FanoutMetrics inMemory() {
        return new FanoutMetrics(new SimpleMeterRegistry());
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** Counts a commit asked for on catching up when {@code asked} (the result of {@code CatchUpCommit.processed}). */
    public void catchUpCommit(boolean asked) {
        if (asked) {
            catchUpCommits.increment();
        }
    }

    public void recordIn() {
        recordsIn.increment();
    }

    public void dlq(String kind) {
        counter("notify.fanout.dlq", "Records sent to notify.events.dlq, by failure kind", "kind", kind).increment();
    }

    public void dedupHit() {
        dedupHits.increment();
    }

    /** One recipient copy: sequenced in the task that read the event, or sent through the by-stream topic. */
    public void recipient(boolean local) {
        (local ? localRecipients : repartitionedRecipients).increment();
    }

    public void sequenced() {
        sequenced.increment();
    }

    /** Inbox entries deleted; bound is "count" or "age". */
    public void inboxTrimmed(String bound, long entries) {
        if (entries > 0) {
            counter("notify.fanout.inbox.trimmed", "Inbox entries deleted by a retention bound", "bound", bound)
                    .increment(entries);
        }
    }

    public void delivered() {
        deliveries.increment();
    }

    public void undelivered(UndeliveredReason reason) {
        counter("notify.fanout.undelivered", "UndeliveredEvents written, by reason", "reason", reason.wireName())
                .increment();
    }

    /** A delivery written once to notify.all-nodes; why is {@code broadcast} or {@code hot_room}. */
    public void allNodes(String why) {
        counter("notify.fanout.all.nodes", "Deliveries written once to notify.all-nodes, by why (broadcast, hot_room)", "why", why)
                .increment();
    }

    /** A durable room or broadcast event that reached no node (it is in the inbox; no UndeliveredEvent is written). */
    public void unsubscribed(UndeliveredReason reason) {
        counter("notify.fanout.unsubscribed", "Durable room/broadcast events routed to no node (no subscriber), by reason",
                "reason", reason.wireName()).increment();
    }

    /** An ephemeral event that reached no node; reason is an UndeliveredReason wire name. */
    public void ephemeralDropped(UndeliveredReason reason) {
        counter("notify.fanout.ephemeral.dropped", "Ephemeral events routed to no node, by reason", "reason",
                reason.wireName()).increment();
    }

    public void staleRemovals(int members) {
        staleRemovals.increment(members);
    }

    /** A delivery to a node whose topic does not exist; stage is "route" or "produce". */
    public void nodeTopicMissing(String stage) {
        counter("notify.fanout.node.topic.missing", "Deliveries skipped because the node topic does not exist",
                "stage", stage).increment();
    }

    /** Current value of a counter, 0 when it was never incremented (tests and logs). */
    public double count(String name, String... tags) {
        Counter c = registry.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    private Counter counter(String name, String description, String tag, String value) {
        return tagged.computeIfAbsent(name + '|' + value,
                k -> Counter.builder(name).description(description).tag(tag, value).register(registry));
    }

    private Counter counter(String name, String description, String tag1, String value1, String tag2, String value2) {
        return tagged.computeIfAbsent(name + '|' + value1 + '|' + value2,
                k -> Counter.builder(name).description(description).tag(tag1, value1).tag(tag2, value2).register(registry));
    }

    /** One receipt of notify.receipts handled: {@code applied}, or dropped with the reason (ReceiptApplier). */
    public void receipt(String kind, String outcome) {
        counter("notify.fanout.receipts", "Records of notify.receipts, by kind and outcome (applied or why dropped)",
                "kind", kind, "outcome", outcome).increment();
    }

    /** One record of notify.push-changes handled: by kind, {@code applied}, {@code evicted} (the bound), or why dropped (PushRegistrar). */
    public void pushChange(String kind, String outcome) {
        counter("notify.fanout.push.changes", "Records of notify.push-changes, by kind and outcome (applied, evicted, or why dropped)",
                "kind", kind, "outcome", outcome).increment();
    }

    /**
     * An event not passed on because it had expired (docs/protocol.md, "Expiry"): {@code route}, an ephemeral
     * event at routing (a durable one is routed: gateways send its position). Events expired before intake are
     * counted in {@code notify_fanout_dlq_total{kind="expired"}}.
     */
    public void expired(String stage) {
        counter("notify.fanout.expired", "Events not passed on because they had expired, by stage", "stage", stage).increment();
    }

    /**
     * A producer's recall (docs/protocol.md, "Recall"): {@code accepted} at intake (once per record), then per
     * stream it names {@code applied} (it took back at least one event) or {@code not_found}.
     */
    public void recall(String outcome) {
        counter("notify.fanout.recalls", "Recalls, by outcome (accepted at intake; applied or not_found per stream)",
                "outcome", outcome).increment();
    }

    /** One record of notify.preferences: {@code applied}, {@code reset} (a tombstone), or why dropped (PreferenceApplier). */
    public void preferences(String outcome) {
        counter("notify.fanout.preferences", "Records of notify.preferences, by outcome (applied, reset, or why dropped)",
                "outcome", outcome).increment();
    }

    /**
     * A channel a user's preferences turned off for one event of their stream (the Sequencer): {@code live} (in
     * the inbox, not sent to devices), {@code inbox} (sent live as ephemeral, not kept), {@code push} (no
     * fallback), {@code all} (live and inbox off: not sequenced at all).
     */
    public void muted(String channel) {
        counter("notify.fanout.muted", "Events a user's preferences kept from a channel, by channel (live, inbox, push, all)",
                "channel", channel).increment();
    }

    /**
     * A fallback scheduled, folded into an open digest ({@code folded}), decided (emitted_no_ack, emitted_no_device,
     * cancelled_ack, cancelled_read), held to the end of the user's quiet hours ({@code held_quiet}), or not
     * scheduled (dropped_full, muted).
     */
    public void fallback(String outcome) {
        counter("notify.fanout.fallback", "Offline fallbacks, by outcome (FallbackTimer)", "outcome", outcome).increment();
    }

    /** How late a fallback was decided after it was due. */
    public void fallbackLateness(long millis) {
        fallbackLateness.record(Math.max(0, millis), java.util.concurrent.TimeUnit.MILLISECONDS);
    }
}
