package io.notify.fanout;

import io.notify.fanout.dedup.DedupProcessor;
import io.notify.fanout.fallback.FallbackTimer;
import io.notify.fanout.fallback.TimerOutput;
import io.notify.fanout.inbox.InboxStores;
import io.notify.fanout.intake.Intake;
import io.notify.fanout.intake.IntakeProcessor;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.fanout.prefs.PreferenceApplier;
import io.notify.fanout.prefs.PreferenceStores;
import io.notify.fanout.push.PushRegistrar;
import io.notify.fanout.push.PushStores;
import io.notify.fanout.receipts.ReceiptApplier;
import io.notify.fanout.receipts.StateUpdate;
import io.notify.fanout.recipients.ExplodeProcessor;
import io.notify.fanout.recipients.Placed;
import io.notify.fanout.recipients.RecipientEvent;
import io.notify.fanout.recipients.RecipientPlacement;
import io.notify.fanout.routing.NodeTopics;
import io.notify.fanout.routing.Routed;
import io.notify.fanout.routing.Router;
import io.notify.fanout.sequencing.Sequencer;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.RouteLookup;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The fan-out topology as a pure function of its configuration and collaborators: no I/O
 * happens here, so it runs unchanged under {@code TopologyTestDriver} and in {@code KafkaStreams}.
 *
 * <pre>
 * notify.events (bytes) → validate ─┬─ rejected → notify.events.dlq (original bytes + reason headers)
 *                                   ├─ accepted → dedup [dedup-ids] ─┬─ an id reused for another event → the DLQ (as above)
 *                                   │                                 └─ first sighting → explode recipients ─┐
 *                                   └─ a recall (no dedup) ───────────────────────────────────→ explode recipients ─┤
 *   ┌── local: the stream's by-stream partition is the one the event was read from ───────┤
 *   └── others → repartition by stream (&lt;app&gt;-by-stream-repartition) ──────────────────────┘
 *   → sequence [stream-heads, inbox, preferences] ─┬─ durable (and a recall's recalled entries) → notify.stream-log
 *                                     ├─ a user's recalled entry: an archive mark → notify.receipts
 *                                     ├─ fallback-timer [fallback-pending, fallback-digests] ─┬─ notify.fallback (due, not acked nor read)
 *                                     │                                                     └─ a digest's inbox summary: logged and routed below
 *                                     └─ route ─┬─ notify.node.&lt;nodeId&gt; (one DeliveryMessage per node)
 *                                               ├─ notify.all-nodes (b:all and hot rooms: one for every node)
 *                                               └─ notify.undelivered
 * notify.receipts (bytes) → apply-receipts [stream-heads, inbox, inbox-state] ─┬─ notify.inbox-state
 *                                                                               └─ marks: state frame → route (above)
 * notify.push-changes (bytes) → apply-push-changes [push-registrations] → notify.push-registrations
 *                               (the fallback timer reads push-registrations: a push fallback carries the user's devices)
 * notify.preferences (bytes) → apply-preferences [preferences] (read by sequence and fallback-timer)
 * </pre>
 *
 * The local branch and the repartition topic's source feed one sequencer, so Kafka Streams runs
 * intake and sequencing as one sub-topology: task i reads notify.events partition i and
 * by-stream partition i and owns the heads and inbox of exactly the streams that hash to i.
 * {@link RecipientPlacement} decides which copies are local (none unless both topics have the
 * same partition count).
 *
 * <p>Every internal topic and store has an explicit name (checked by
 * {@code ensure.explicit.internal.resource.naming}), so names survive topology edits and a
 * rolling upgrade keeps its state.
 */
public final class FanoutTopology {

    /** The {@code device} of the archive marks a recall writes to {@code notify.receipts} (docs/protocol.md, "Recall"). */
    public static final String RECALL_DEVICE = ReceiptApplier.RECALL_DEVICE;

    /** Name of the repartition step; its topic is {@code <application.id>-by-stream-repartition}. */
    public static final String BY_STREAM = "by-stream";

    private FanoutTopology() {
    }

    /** The by-stream repartition topic of the Kafka Streams application {@code applicationId}. */
    public static String byStreamTopic(String applicationId) {
        return applicationId + "-" + BY_STREAM + "-repartition";
    }

    public static Topology build(FanoutConfig config, RecipientPlacement placement, RouteLookup registry, NodeTopics nodeTopics,
                                 Clock clock, FanoutMetrics metrics) {
        TopicCatalog topics = config.topics();
        StreamsBuilder builder = new StreamsBuilder();
        builder.addStateStore(DedupProcessor.storeBuilder(config.dedupWindow()));
        builder.addStateStore(InboxStores.headsBuilder());
        builder.addStateStore(InboxStores.inboxBuilder());
        builder.addStateStore(InboxStores.inboxStateBuilder());
        builder.addStateStore(FallbackTimer.storeBuilder());
        builder.addStateStore(PushStores.registrationsBuilder());
        builder.addStateStore(PreferenceStores.builder());
        builder.addStateStore(FallbackTimer.digestsBuilder());

        // Raw bytes in: parsing happens in our processor, so a poison pill becomes a DLQ record instead of a dead thread.
        KStream<byte[], byte[]> raw = builder.stream(topics.events().name(),
                Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("events-source"));

        // Every record comes out as Accepted (keyed by event id) or Rejected (original bytes, DLQ headers).
        Map<String, KStream<String, Intake>> intake = raw
                .process(() -> new IntakeProcessor(clock, metrics), Named.as("validate"))
                .split(Named.as("intake-"))
                .branch((id, v) -> v instanceof Intake.Accepted, Branched.as("accepted"))
                .branch((id, v) -> v instanceof Intake.Recalled, Branched.as("recalled"))
                .defaultBranch(Branched.as("rejected"));

        // Dedup before the fan-out so a re-sent event costs one lookup, not one per recipient; a reused id comes out Rejected.
        Map<String, KStream<String, Intake>> deduped = intake.get("intake-accepted")
                .mapValues(v -> (Intake.Accepted) v, Named.as("accepted"))
                .process(() -> new DedupProcessor(config.dedupWindow(), clock, metrics), Named.as("dedup"), DedupProcessor.STORE)
                .split(Named.as("dedup-"))
                .branch((id, v) -> v instanceof Intake.Accepted, Branched.as("first"))
                .defaultBranch(Branched.as("reused"));

        // Rejected (by intake, or a reused id): put the original key back; value and headers already are what the DLQ holds.
        intake.get("intake-rejected")
                .merge(deduped.get("dedup-reused"), Named.as("rejected"))
                .map((none, v) -> KeyValue.pair(((Intake.Rejected) v).key(), ((Intake.Rejected) v).value()),
                        Named.as("dlq-original-bytes"))
                .to(topics.eventsDlq().name(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("dlq-sink"));

        // A recall skips dedup (a repeat finds nothing left to take back) and meets its streams' events like one.
        Map<String, KStream<StreamId, Placed>> placed = deduped.get("dedup-first")
                .merge(intake.get("intake-recalled"), Named.as("events-and-recalls"))
                // One compact record per recipient stream, keyed by the stream (the recipient list is not copied).
                .process(() -> new ExplodeProcessor(placement, metrics), Named.as("explode-recipients"))
                .split(Named.as("recipients-"))
                .branch((stream, p) -> p.local(), Branched.as("local"))
                .defaultBranch(Branched.as("repartition"));

        // Explicit, named repartition: every event of one stream meets in one task, in one order.
        Repartitioned<StreamId, RecipientEvent> byStream = Repartitioned
                .with(NotifySerdes.streamId(), RecipientEvent.serde()).withName(BY_STREAM);
        KStream<StreamId, RecipientEvent> streamKeyed = placed.get("recipients-repartition")
                .mapValues(Placed::event, Named.as("to-repartition"))
                .repartition(config.streamPartitions() > 0 ? byStream.withNumberOfPartitions(config.streamPartitions()) : byStream)
                .merge(placed.get("recipients-local").mapValues(Placed::event, Named.as("kept-local")), Named.as("by-stream-or-local"));

        // Positions and the inbox for durable events; ephemeral events pass through untouched.
        Sequencer.InboxBounds bounds = new Sequencer.InboxBounds(config.inboxLimits(),
                config.inboxSweepInterval(), config.inboxSweepStreams(), config.inboxSweepMaxDeletes());
        KStream<StreamId, StreamEvent> sequenced = streamKeyed.process(
                () -> new Sequencer(bounds, clock, metrics), Named.as("sequence"), InboxStores.HEADS, InboxStores.INBOX,
                PreferenceStores.PREFERENCES);

        // Offline fallback: events that asked for one wait for their due time next to the inbox state that cancels them.
        Map<String, KStream<StreamId, TimerOutput>> timer = sequenced
                .process(() -> new FallbackTimer(config.fallback(), config.inboxLimits(), clock, metrics), Named.as("fallback-timer"),
                        FallbackTimer.STORE, FallbackTimer.DIGESTS, InboxStores.HEADS, InboxStores.INBOX, InboxStores.INBOX_STATE,
                        PushStores.REGISTRATIONS,
                        PreferenceStores.PREFERENCES)
                .split(Named.as("timer-"))
                .branch((stream, out) -> out instanceof TimerOutput.Fallback, Branched.as("fallback"))
                .defaultBranch(Branched.as("summary"));
        timer.get("timer-fallback")
                .mapValues(out -> ((TimerOutput.Fallback) out).record(), Named.as("as-fallback-record"))
                .to(topics.fallback().name(), Produced.with(NotifySerdes.streamId(), NotifySerdes.fallbackRecord())
                        .withName("fallback-sink"));
        // A digest's inbox summary, sequenced by the timer in the stream's task: logged and routed like any durable event.
        KStream<StreamId, StreamEvent> withSummaries = sequenced.merge(timer.get("timer-summary")
                .mapValues(out -> (StreamEvent) ((TimerOutput.Summary) out).event(), Named.as("as-summary")), Named.as("with-summaries"));

        // A recalled event of a user is archived for them by a system mark, in the transaction of the recall: the unread
        // count drops, devices get a state frame, a pending fallback is cancelled (ReceiptApplier, as for a user's mark).
        sequenced
                .filter((stream, e) -> stream.isUser() && e instanceof SequencedEvent s && s.recalled(), Named.as("recalled-only"))
                .mapValues(e -> Receipt.markIds(e.stream(), ReceiptKind.ARCHIVE, ((SequencedEvent) e).epoch(), List.of(e.id()),
                        RECALL_DEVICE, clock.millis()), Named.as("recall-archive-mark"))
                .to(topics.receipts().name(), Produced.with(NotifySerdes.streamId(), NotifySerdes.receipt()).withName("recall-marks-sink"));

        // The stream log holds durable events only: ephemeral ones are never replayed.
        withSummaries
                .filter((stream, e) -> e.isDurable(), Named.as("durable-only"))
                .mapValues(e -> (SequencedEvent) e, Named.as("as-sequenced"))
                .to(topics.streamLog().name(), Produced.with(NotifySerdes.streamId(), NotifySerdes.sequencedEvent())
                        .withName("stream-log-sink"));

        // Receipts (devices' acks, users' marks) meet the inbox in the task that owns it: notify.receipts is
        // partitioned like the by-stream topic (FanoutApp checks the count), and the shared stores put the
        // applier in the sequencer's sub-topology. Bytes in: a record we cannot read is counted, not fatal.
        KStream<StreamId, StateUpdate> stateUpdates = builder.stream(topics.receipts().name(),
                        Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("receipts-source"))
                .process(() -> new ReceiptApplier(config.inboxState(), clock, metrics), Named.as("apply-receipts"),
                        InboxStores.HEADS, InboxStores.INBOX, InboxStores.INBOX_STATE);
        stateUpdates
                .mapValues(StateUpdate::state, Named.as("as-inbox-state"))
                .to(topics.inboxState().name(), Produced.with(NotifySerdes.streamId(), NotifySerdes.inboxState())
                        .withName("inbox-state-sink"));
        // Push registrations live where the user's stream does (notify.push-changes is partitioned like notify.receipts),
        // so a push fallback carries the user's devices; bytes in, as for receipts.
        builder.stream(topics.pushChanges().name(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("push-changes-source"))
                .process(() -> new PushRegistrar(config.pushMaxRegistrations(), metrics), Named.as("apply-push-changes"),
                        PushStores.REGISTRATIONS)
                .to(topics.pushRegistrations().name(), Produced.with(NotifySerdes.streamId(), NotifySerdes.pushRegistrations())
                        .withName("push-registrations-sink"));
        // Preferences too (notify.preferences is partitioned like notify.receipts): the sequencer and the fallback timer read them.
        builder.stream(topics.preferences().name(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("preferences-source"))
                .process(() -> new PreferenceApplier(metrics), Named.as("apply-preferences"), PreferenceStores.PREFERENCES);
        // A mark's state frame goes to the user's devices like any ephemeral event of the stream.
        KStream<StreamId, StreamEvent> stateFrames = stateUpdates
                .filter((stream, u) -> u.frame() != null, Named.as("marks-only"))
                .mapValues(u -> (StreamEvent) u.frame(), Named.as("as-state-frame"));

        // Route after the stream log: the registry lookup is the only step that waits on the network.
        Map<String, KStream<StreamId, Routed>> routed = withSummaries
                .merge(stateFrames, Named.as("events-and-state-frames"))
                .process(() -> new Router(registry, nodeTopics, topics, config.routeTimeout(), clock, metrics, config.hotRooms()),
                        Named.as("route"))
                .split(Named.as("routed-"))
                .branch((stream, r) -> r instanceof Routed.NodeDelivery, Branched.as("node"))
                .branch((stream, r) -> r instanceof Routed.AllNodes, Branched.as("all-nodes"))
                .defaultBranch(Branched.as("undelivered"));

        // The node id picks the topic; the router already skipped nodes whose topic is known missing.
        routed.get("routed-node")
                .mapValues(r -> (Routed.NodeDelivery) r, Named.as("as-node-delivery"))
                .to((stream, delivery, context) -> topics.node(delivery.nodeId()).name(),
                        Produced.with(NotifySerdes.streamId(), Routed.NodeDelivery.serde(topics)).withName("node-sink"));

        routed.get("routed-all-nodes")
                .mapValues(r -> ((Routed.AllNodes) r).message(), Named.as("as-all-nodes"))
                .to(topics.allNodes().name(), Produced.with(NotifySerdes.streamId(), NotifySerdes.deliveryMessage())
                        .withName("all-nodes-sink"));

        routed.get("routed-undelivered")
                .mapValues(r -> ((Routed.Undelivered) r).event(), Named.as("as-undelivered"))
                .to(topics.undelivered().name(), Produced.with(NotifySerdes.streamId(), NotifySerdes.undeliveredEvent())
                        .withName("undelivered-sink"));

        return builder.build();
    }
}
