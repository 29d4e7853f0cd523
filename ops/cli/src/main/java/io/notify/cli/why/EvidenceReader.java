package io.notify.cli.why;

import io.notify.cli.replay.RecordLookup;
import io.notify.cli.replay.Routing;
import io.notify.cli.replay.Row;
import io.notify.cli.why.Evidence.Copy;
import io.notify.cli.why.Evidence.Rejection;
import io.notify.cli.why.Evidence.Sequenced;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.DlqFailure;
import io.notify.schemas.topic.DlqHeaders;
import io.notify.schemas.topic.TopicCatalog;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Reads what the topics hold about one event of one user, as little as answers it. Every read is
 * bounded by the window {@code [from, to)} and by the end offsets captured when it starts, for every
 * partition it may read, in one request. The topics keyed by stream (stream-log, receipts, fallback,
 * push-outcomes, the node topics and notify.undelivered) are read on the one partition the user's
 * stream key is in; push-outcomes only when a push fallback record was found, from its {@code at}.
 * notify.events (and the DLQ, read only when the event was not sequenced) are keyed by the first
 * recipient, which may be another user: the partition of {@code u:<user>} first, the others only
 * when it holds no copy (every copy of one event carries one key, docs/topics.md).
 */
final class EvidenceReader {

    /** Receipts and fallback records come after the event; this much earlier still counts (producer and gateway clocks). */
    static final Duration SLACK = Duration.ofMinutes(5);
    /** More records with one id than this is a runaway producer: the rest are not collected. */
    static final int MAX_MATCHES = 1000;

    private final RecordLookup lookup;
    private final TopicCatalog topics;
    private final Question q;

    EvidenceReader(RecordLookup lookup, Question question) {
        this.lookup = lookup;
        this.topics = lookup.catalog();
        this.q = question;
    }

    /** Reads; a {@code UsageException} when notify.events or notify.stream-log does not exist (a wrong prefix). */
    Evidence read(Instant now) throws IOException {
        lookup.require(topics.events().name());
        lookup.require(topics.streamLog().name());
        captureEnds();
        Looked<Sequenced> log = streamLog();
        Looked<Copy> events = keyPartitionFirst(topics.events().name(), Set.of("id", "class", "to.users"),
                r -> q.eventId().equals(r.text("id")),
                r -> new Copy(r.partition(), r.offset(), r.timestamp(), r.keyText(), r.text("class"), r.list("to.users")));
        Looked<Rejection> dlq = !log.isEmpty() ? Looked.skipped(topics.eventsDlq().name())
                : keyPartitionFirst(topics.eventsDlq().name(), Set.of("id"), this::dlqMatch, EvidenceReader::rejection);
        String routingTopics = topics.prefix() + TopicCatalog.NODE_PREFIX + "<node> or " + topics.undelivered().name();
        if (log.isEmpty()) {
            return new Evidence(q, now, events, dlq, log, Looked.skipped(routingTopics),
                    Looked.skipped(topics.receipts().name()), Looked.skipped(topics.fallback().name()),
                    Looked.skipped(topics.pushOutcomes().name()));
        }
        Sequenced first = log.first();
        SequencedEvent event = first.event();
        RecordLookup.RoutingFound routed = lookup.routing(q.stream(), event.epoch(), event.seq(), first.timestamp());
        Looked<Routing> routing = routed.topics().isEmpty() ? Looked.missing(routingTopics)
                : Looked.read(routingTopics, routed.from(), routed.to(), routed.routes());
        Instant after = Instant.ofEpochMilli(Math.max(q.from().toEpochMilli(), first.timestamp() - SLACK.toMillis()));
        Looked<FallbackRecord> fallback = event.fallback() == null ? Looked.skipped(topics.fallback().name())
                : fallback(event, after);
        return new Evidence(q, now, events, dlq, log, routing, receipts(event, after), fallback, pushOutcomes(fallback));
    }

    private void captureEnds() {
        List<TopicPartition> all = new ArrayList<>();
        for (String topic : List.of(topics.events().name(), topics.eventsDlq().name())) {
            lookup.partitions(topic).forEach(p -> all.add(new TopicPartition(topic, p)));
        }
        for (String topic : List.of(topics.streamLog().name(), topics.receipts().name(), topics.fallback().name(),
                topics.pushOutcomes().name())) {
            if (lookup.exists(topic)) {
                all.add(new TopicPartition(topic, lookup.partitionOf(topic, q.stream())));
            }
        }
        all.addAll(lookup.routingPartitions(q.stream()));
        lookup.captureEnds(all);
    }

    private Looked<Sequenced> streamLog() throws IOException {
        String topic = topics.streamLog().name();
        List<Sequenced> found = new ArrayList<>();
        lookup.scan(topic, List.of(lookup.partitionOf(topic, q.stream())), q.from(), q.to(), q.stream(), Set.of("id"), r -> {
            if (q.eventId().equals(r.text("id"))) {
                SequencedEvent e = parse(() -> NotifySerdes.sequencedEvent().deserializer().deserialize(topic, r.valueBytes()));
                if (e != null) {
                    found.add(new Sequenced(r.partition(), r.offset(), r.timestamp(), e));
                }
            }
            return found.size() < MAX_MATCHES;
        });
        return Looked.read(topic, q.from(), q.to(), found);
    }

    /** The records of {@code topic} with the id: on the partition of the user's stream key, else on the others. */
    private <T> Looked<T> keyPartitionFirst(String topic, Set<String> paths, Predicate<Row> match, Function<Row, T> convert)
            throws IOException {
        if (!lookup.exists(topic)) {
            return Looked.missing(topic);
        }
        int mine = lookup.partitionOf(topic, q.stream());
        List<T> found = collect(topic, List.of(mine), paths, match, convert);
        if (found.isEmpty()) {
            found = collect(topic, lookup.partitions(topic).stream().filter(p -> p != mine).toList(), paths, match, convert);
        }
        return Looked.read(topic, q.from(), q.to(), found);
    }

    private <T> List<T> collect(String topic, List<Integer> partitions, Set<String> paths, Predicate<Row> match,
                                Function<Row, T> convert) throws IOException {
        List<T> found = new ArrayList<>();
        lookup.scan(topic, partitions, q.from(), q.to(), null, paths, r -> {
            if (match.test(r)) {
                found.add(convert.apply(r));
            }
            return found.size() < MAX_MATCHES;
        });
        return found;
    }

    /** A DLQ record's id is its value's, or its key where the value has none (records were keyed by id before 2026-12). */
    private boolean dlqMatch(Row r) {
        String id = r.text("id");
        return id != null ? id.equals(q.eventId()) : q.eventId().equals(r.keyText());
    }

    private static Rejection rejection(Row r) {
        DlqFailure failure;
        try {
            failure = DlqFailure.readFrom(r.headers()).orElse(null);
        } catch (IllegalArgumentException e) {
            failure = null; // malformed headers: show the raw error text
        }
        return new Rejection(r.partition(), r.offset(), r.timestamp(), r.keyText(), failure, r.header(DlqHeaders.ERROR));
    }

    private Looked<Receipt> receipts(SequencedEvent event, Instant after) throws IOException {
        String topic = topics.receipts().name();
        if (!lookup.exists(topic)) {
            return Looked.missing(topic);
        }
        FirstReceipts firsts = new FirstReceipts(event);
        lookup.scan(topic, List.of(lookup.partitionOf(topic, q.stream())), after, q.to(), q.stream(), Set.of(), r -> {
            Receipt receipt = parse(() -> NotifySerdes.receipt().deserializer().deserialize(topic, r.valueBytes()));
            if (receipt != null) {
                firsts.offer(receipt);
            }
            return true;
        });
        return Looked.read(topic, after, q.to(), firsts.kept());
    }

    /** The event's fallback records: those naming it, and for an event with a digest, its digest's record ({@link #covers}). */
    private Looked<FallbackRecord> fallback(SequencedEvent event, Instant after) throws IOException {
        String topic = topics.fallback().name();
        if (!lookup.exists(topic)) {
            return Looked.missing(topic);
        }
        String digestKey = event.digest() == null ? null : event.digest().key();
        List<FallbackRecord> found = new ArrayList<>();
        lookup.scan(topic, List.of(lookup.partitionOf(topic, q.stream())), after, q.to(), q.stream(), Set.of("event.id", "digest.key"),
                r -> {
                    if (q.eventId().equals(r.text("event.id")) || (digestKey != null && digestKey.equals(r.text("digest.key")))) {
                        FallbackRecord f = parse(() -> NotifySerdes.fallbackRecord().deserializer().deserialize(topic, r.valueBytes()));
                        if (f != null && covers(f, event)) {
                            found.add(f);
                        }
                    }
                    return found.size() < MAX_MATCHES;
                });
        return Looked.read(topic, after, q.to(), found);
    }

    /**
     * Whether the fallback record is the event's: its {@code event}, or a digest's whose seqs from {@code first} to
     * {@code event} hold it (a folded event's record names the last event of its digest).
     */
    static boolean covers(FallbackRecord f, SequencedEvent event) {
        SequencedEvent last = f.event();
        if (!last.epoch().equals(event.epoch())) {
            return false;
        }
        return last.seq() == event.seq() || f.digest() != null && event.digest() != null
                && f.digest().key().equals(event.digest().key()) && f.digest().first().seq() <= event.seq() && event.seq() <= last.seq();
    }

    /**
     * The push sender's outcomes of the push fallback record's event (same id and seq: for a digest, its last event),
     * from five minutes before the record was written: read only when there is one, since the sender acts on nothing else.
     */
    private Looked<PushOutcome> pushOutcomes(Looked<FallbackRecord> fallback) throws IOException {
        String topic = topics.pushOutcomes().name();
        FallbackRecord push = fallback.records().stream().filter(f -> FallbackRecord.PUSH_CHANNEL.equals(f.channel()))
                .findFirst().orElse(null);
        if (push == null) {
            return Looked.skipped(topic);
        }
        if (!lookup.exists(topic)) {
            return Looked.missing(topic);
        }
        Instant after = Instant.ofEpochMilli(Math.max(q.from().toEpochMilli(), push.at() - SLACK.toMillis()));
        if (!after.isBefore(q.to())) {
            return Looked.read(topic, q.from(), q.to(), List.of());
        }
        String id = push.event().id(); // the event's, or for a digest the last one's, which the push sender names
        String seq = Long.toString(push.event().seq());
        List<PushOutcome> found = new ArrayList<>();
        lookup.scan(topic, List.of(lookup.partitionOf(topic, q.stream())), after, q.to(), q.stream(), Set.of("eventId", "seq"),
                r -> {
                    if (id.equals(r.text("eventId")) && seq.equals(r.text("seq"))) {
                        PushOutcome o = parse(() -> NotifySerdes.pushOutcome().deserializer().deserialize(topic, r.valueBytes()));
                        if (o != null) {
                            found.add(o);
                        }
                    }
                    return found.size() < MAX_MATCHES;
                });
        return Looked.read(topic, after, q.to(), found);
    }

    /** The typed value, or null when the record cannot be read as one (it is left out, as fan-out drops it). */
    private static <T> T parse(Supplier<T> read) {
        try {
            return read.get();
        } catch (SerializationException | IllegalArgumentException e) {
            return null;
        }
    }
}
