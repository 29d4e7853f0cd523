package io.notify.cli.why;

import io.notify.cli.replay.Routing;
import io.notify.cli.replay.TimeText;
import io.notify.cli.why.Evidence.Copy;
import io.notify.cli.why.Evidence.Rejection;
import io.notify.cli.why.Evidence.Sequenced;
import io.notify.protocol.event.Channel;
import io.notify.protocol.event.Digest;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.schemas.topic.DlqFailure;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One event's life as rows, assembled from {@link Evidence} (pure: no Kafka, no clock but
 * {@code evidence.now()}): ingested (and deduplicated copies, or rejected to the DLQ), sequenced,
 * routed, acked per device, seen/read/archived, fallback, and for a push fallback each push attempt
 * (sent, retried, gone, refused, given up, rate limited, no registration). What the user's preferences
 * did is told where it shows: channels muted or a critical mark on the sequenced row; no fallback for a
 * push-muted event; a fallback held by quiet hours or folded into a digest on the fallback row. A step with no record
 * says where and over which span nothing was found; the steps after sequencing are left out when the
 * event was never sequenced for the user, since there is nothing they could have recorded.
 */
final class Timeline {

    /** Node topics keep an hour, notify.undelivered three days (docs/topics.md): older routing is gone. */
    static final Duration NODE_RETENTION = Duration.ofHours(1);
    static final Duration UNDELIVERED_RETENTION = Duration.ofDays(3);
    /**
     * The fallback timer decides a due event within a check interval (1 s) and a commit: an ack or
     * read this soon after the due time, with no record written, still explains the cancellation.
     */
    static final Duration DECISION_GRACE = Duration.ofMinutes(1);

    private final Evidence e;
    private final TimeText time = new TimeText();
    private final List<Step> steps = new ArrayList<>();

    private Timeline(Evidence e) {
        this.e = e;
    }

    static Timeline of(Evidence evidence) {
        Timeline t = new Timeline(evidence);
        t.assemble();
        return t;
    }

    /** True when any topic holds the event: a copy on notify.events, a DLQ record or a stream-log record. */
    boolean found() {
        return !e.events().isEmpty() || !e.dlq().isEmpty() || !e.streamLog().isEmpty();
    }

    List<Step> steps() {
        return List.copyOf(steps);
    }

    private void assemble() {
        ingested();
        rejected();
        SequencedEvent s = sequenced();
        if (s == null) {
            return;
        }
        routed(s);
        List<Receipt> receipts = FirstReceipts.firsts(s, e.receipts().records());
        List<Receipt> acks = receipts.stream().filter(r -> r.kind() == ReceiptKind.ACK).toList();
        acked(s, acks);
        for (ReceiptKind kind : List.of(ReceiptKind.SEEN, ReceiptKind.READ, ReceiptKind.ARCHIVE)) {
            marked(kind, receipts.stream().filter(r -> r.kind() == kind).findFirst().orElse(null));
        }
        fallback(s, receipts);
        pushed();
    }

    private void ingested() {
        Looked<Copy> events = e.events();
        if (events.isEmpty()) {
            String detail = absent(events);
            Long at = null;
            if (!e.dlq().isEmpty()) {
                detail += "; the DLQ record below came from" + dlqSource(e.dlq().first());
            } else if (!e.streamLog().isEmpty()) {
                at = e.streamLog().first().event().ingestedAt();
                detail += "; its stream-log record says it was ingested at " + time.format(at) + " (notify.events keeps 7 days)";
            }
            add(at, "ingested", detail, Map.of());
            return;
        }
        Copy c = events.first();
        StringBuilder d = new StringBuilder(events.topic() + " " + c.partition() + ":" + c.offset() + ", key " + c.key());
        if ("ephemeral".equals(c.eventClass())) {
            d.append(", class ephemeral");
        }
        if (!c.users().isEmpty() && !c.users().contains(e.question().user())) {
            d.append(", to.users ").append(String.join(";", c.users()))
                    .append(" (not user ").append(e.question().user()).append(')');
        }
        add(c.timestamp(), "ingested", d.toString(), facts("partition", c.partition(), "offset", c.offset(), "key", c.key(),
                "copies", events.records().size()));
        if (events.records().size() > 1) {
            deduplicated(events.records());
        }
    }

    private void deduplicated(List<Copy> copies) {
        int n = copies.size();
        int sequenced = (int) e.streamLog().records().stream().filter(s -> !s.event().recalled()).count();
        String others = copies.subList(1, n).stream()
                .map(c -> c.partition() + ":" + c.offset() + " at " + time.format(c.timestamp()))
                .collect(Collectors.joining(", "));
        String detail = sequenced > 1
                ? n + " copies (" + others + ") and sequenced " + sequenced + " times: a copy came after the dedup window "
                        + "(notify.fanout.dedup-window, 24h by default)"
                : n + " copies: the dedup window kept the first; deduplicated " + (n - 1) + (n == 2 ? " copy (" : " copies (")
                        + others + ")";
        int dropped = Math.max(0, n - Math.max(1, sequenced));
        add(copies.get(1).timestamp(), "deduplicated", detail, facts("copies", n, "dropped", dropped));
    }

    private void rejected() {
        Looked<Rejection> dlq = e.dlq();
        if (dlq.state() == Looked.State.SKIPPED) {
            return;
        }
        if (dlq.isEmpty()) {
            add(null, "rejected", absent(dlq), Map.of());
            return;
        }
        for (Rejection r : dlq.records()) {
            String why = r.failure() != null ? r.failure().kind() + ": " + r.failure().error()
                    : r.error() != null ? r.error() : "no readable notify.error header";
            add(r.timestamp(), "rejected", dlq.topic() + " " + r.partition() + ":" + r.offset() + ": " + why
                    + (r.failure() != null ? " (from" + dlqSource(r) + ")" : ""),
                    facts("partition", r.partition(), "offset", r.offset(), "key", r.key(),
                            "error", r.failure() != null ? r.failure().error() : r.error(),
                            "errorKind", r.failure() != null ? r.failure().kind() : null));
        }
    }

    private static String dlqSource(Rejection r) {
        DlqFailure f = r.failure();
        return f == null ? " an unknown place (no readable notify.source.* headers)"
                : " " + f.sourceTopic() + " " + f.sourcePartition() + ":" + f.sourceOffset();
    }

    /** The first stream-log record's event, or null (with the row saying why) when there is none. */
    private SequencedEvent sequenced() {
        Looked<Sequenced> log = e.streamLog();
        if (log.isEmpty()) {
            add(null, "sequenced", absent(log) + notSequencedBecause(), Map.of());
            return null;
        }
        for (Sequenced s : log.records()) {
            SequencedEvent ev = s.event();
            if (ev.recalled()) { // the producer took it back (docs/protocol.md §3.7)
                add(s.timestamp(), "recalled", ev.stream().value() + " seq " + ev.seq() + " taken back by its producer (" + log.topic()
                        + " " + s.partition() + ":" + s.offset() + "): out of the inbox, archived, devices sent a recalled frame",
                        facts("partition", s.partition(), "offset", s.offset(), "seq", ev.seq()));
                continue;
            }
            long latency = ev.sequencedAt() - ev.ingestedAt();
            add(ev.sequencedAt(), "sequenced", ev.stream().value() + " epoch " + ev.epoch() + " seq " + ev.seq()
                    + " (" + log.topic() + " " + s.partition() + ":" + s.offset() + "), fan-out latency " + TimeText.human(latency)
                    + preferences(ev),
                    facts("partition", s.partition(), "offset", s.offset(), "epoch", ev.epoch(), "seq", ev.seq(),
                            "sequencedAt", time.format(ev.sequencedAt()), "latencyMs", latency, "critical", ev.critical() ? true : null,
                            "muted", ev.muted().isEmpty() ? null : ev.muted().stream().map(Channel::wireName).toList()));
        }
        return log.first().event();
    }

    /**
     * What the user's preferences did to the event when it was sequenced (docs/inbox.md, "Preferences"): nothing for a
     * critical event; for channels the stream-log record lists as {@code muted}, which and what it means.
     */
    private static String preferences(SequencedEvent ev) {
        if (ev.critical()) {
            return "; critical: the user's preferences and quiet hours do not apply";
        }
        if (ev.muted().isEmpty()) {
            return "";
        }
        String channels = ev.muted().stream().map(Channel::wireName).collect(Collectors.joining(" and "));
        String meaning = ev.muted().stream().map(c -> c == Channel.LIVE ? "no device is sent it" : "no fallback")
                .collect(Collectors.joining("; "));
        return "; muted for " + channels + " by the user's preferences (" + meaning + ")";
    }

    private String notSequencedBecause() {
        List<Copy> copies = e.events().records();
        if (copies.stream().anyMatch(c -> "ephemeral".equals(c.eventClass()))) {
            return ": the event is ephemeral (live only, never sequenced)";
        }
        if (copies.stream().anyMatch(c -> !c.users().isEmpty() && !c.users().contains(e.question().user()))) {
            return ": user " + e.question().user() + " is not among its recipients";
        }
        if (!e.dlq().isEmpty()) {
            return ": fan-out rejected it";
        }
        return copies.isEmpty() ? "" : ": not sequenced (yet): fan-out lags or failed, or the user was not a recipient";
    }

    private void routed(SequencedEvent s) {
        Looked<Routing> routing = e.routing();
        if (routing.isEmpty()) {
            Duration age = Duration.ofMillis(Math.max(0, e.now().toEpochMilli() - s.sequencedAt()));
            String detail = absent(routing);
            if (age.compareTo(NODE_RETENTION) > 0) {
                detail += "; node topics keep 1 hour"
                        + (age.compareTo(UNDELIVERED_RETENTION) > 0 ? ", notify.undelivered 3 days" : "")
                        + ", and the event was sequenced " + TimeText.human(age.toMillis()) + " ago";
            }
            add(null, "routed", detail, Map.of());
            return;
        }
        for (Routing r : routing.records()) {
            String detail = r.node() != null
                    ? "to gateway node " + r.node() + " (" + (r.connections().isEmpty() ? "every connection of the user there"
                            : "connections " + String.join(", ", r.connections())) + ")"
                    : "undelivered: " + r.reason();
            add(r.at(), "routed", detail, facts("node", r.node(), "undelivered", r.reason(),
                    "connections", r.node() == null ? null : r.connections()));
        }
    }

    private void acked(SequencedEvent s, List<Receipt> acks) {
        if (acks.isEmpty()) {
            add(null, "acked", absentReceipt("no ack covering seq " + s.seq()), Map.of());
        }
        for (Receipt a : acks) {
            add(a.at(), "acked", "by device " + a.device() + " (ack up to " + a.upTo() + ")",
                    facts("device", a.device(), "upTo", a.upTo()));
        }
    }

    private void marked(ReceiptKind kind, Receipt first) {
        String step = kind == ReceiptKind.ARCHIVE ? "archived" : kind.wireName();
        if (first == null) {
            add(null, step, absentReceipt("no " + kind.wireName() + " mark covering the event"), Map.of());
            return;
        }
        String how = first.upTo() != null ? "marked up to seq " + first.upTo() : "marked by id";
        add(first.at(), step, how + (first.device() != null ? " from device " + first.device() : ""),
                facts("upTo", first.upTo(), "ids", first.ids(), "device", first.device()));
    }

    private String absentReceipt(String what) {
        Looked<Receipt> r = e.receipts();
        return r.state() == Looked.State.MISSING ? "topic " + r.topic() + " does not exist" : what + " " + where(r);
    }

    private void fallback(SequencedEvent s, List<Receipt> receipts) {
        if (s.fallback() == null) {
            add(null, "fallback", "not requested", facts("outcome", "not_requested"));
            return;
        }
        Looked<FallbackRecord> found = e.fallback();
        if (!found.isEmpty()) {
            written(found.topic(), found.first());
            return;
        }
        Digest digest = s.digest();
        String asked = " (" + s.fallback().channel() + " after " + s.fallback().after()
                + (digest == null ? "" : ", digest " + digest.key() + " within " + digest.window()) + ")";
        if (s.isMuted(Channel.PUSH)) {
            add(null, "fallback", "muted by the user's preferences: none is written" + asked, facts("outcome", "muted"));
            return;
        }
        // a digest falls due when its window closes, or at its first event's own due time: by then at the latest
        long due = plannedDue(s);
        String dueText = time.format(due) + (digest == null ? "" : " at the latest");
        Receipt cancel = receipts.stream()
                .filter(r -> r.kind() == ReceiptKind.ACK || r.kind() == ReceiptKind.READ || r.kind() == ReceiptKind.ARCHIVE)
                .min(Comparator.comparingLong(Receipt::at)).orElse(null);
        long now = e.now().toEpochMilli();
        if (cancel != null && (cancel.at() <= due || (due <= now && cancel.at() - due <= DECISION_GRACE.toMillis()))) {
            String by = cancel.kind() == ReceiptKind.ACK ? "acked by " + cancel.device()
                    : cancel.kind() == ReceiptKind.READ ? "read" : "archived";
            String when = cancel.at() <= due ? ", before the due time " + dueText
                    : ", after the due time " + dueText + " but before the fallback timer decided";
            add(cancel.at(), "fallback", "cancelled: " + by + " at " + time.format(cancel.at()) + when + asked,
                    facts("outcome", "cancelled", "by", cancel.kind().wireName(), "device", cancel.device(), "dueAt", dueText));
        } else if (due > now) {
            add(due, "fallback", "pending until " + dueText + asked + ": no ack or read yet",
                    facts("outcome", "pending", "dueAt", dueText));
        } else {
            String where = found.state() == Looked.State.MISSING ? "topic " + found.topic() + " does not exist"
                    : "not found in " + found.topic() + " " + span(found);
            add(null, "fallback", "due at " + dueText + asked + " with no ack or read before it, but " + where
                    + ": not decided yet (fan-out lag)" + (s.critical() ? "" : ", held by the user's quiet hours")
                    + ", or written after the window",
                    facts("outcome", "missing", "dueAt", dueText));
        }
    }

    private void written(String topic, FallbackRecord f) {
        String devices = f.devices().stream().map(d -> d.device() + ":" + d.acked()).collect(Collectors.joining(";"));
        String push = f.push().stream().map(r -> r.id() + ":" + r.provider()).collect(Collectors.joining(";"));
        FallbackRecord.Digested digest = f.digest();
        // quiet hours move the due time to their end; the time the fallback asked for is its (first) event's
        long planned = plannedDue(digest == null || digest.first().fallback() == null ? f.event() : digest.first());
        boolean held = f.dueAt() > planned;
        add(f.at(), "fallback", "written to " + topic + ": channel " + f.channel() + ", reason " + f.reason().wireName()
                + ", due " + time.format(f.dueAt()) + ", lateness " + TimeText.human(f.at() - f.dueAt())
                + (devices.isEmpty() ? "" : ", devices " + devices) + (push.isEmpty() ? "" : ", push registrations " + push)
                + (held ? "; held by the user's quiet hours (due " + time.format(planned) + " without them)" : "")
                + (digest == null ? "" : "; folded into digest " + digest.key() + ": " + digest.count()
                        + (digest.count() == 1 ? " event" : " events") + ", first " + digest.first().id() + ", last " + f.event().id()),
                facts("outcome", "written", "channel", f.channel(), "reason", f.reason().wireName(),
                        "dueAt", time.format(f.dueAt()), "latenessMs", f.at() - f.dueAt(),
                        "registrations", f.push().isEmpty() ? null : f.push().stream().map(PushRegistration::id).toList(),
                        "heldFrom", held ? time.format(planned) : null, "digest", digest == null ? null : digest.key(),
                        "count", digest == null ? null : digest.count(), "first", digest == null ? null : digest.first().id(),
                        "last", digest == null ? null : f.event().id()));
    }

    /**
     * When the fallback of {@code s} falls due without quiet hours: {@code sequencedAt + after}, and for an event that
     * opens a digest not before its window closes (fanout-streams' FallbackTimer).
     */
    private static long plannedDue(SequencedEvent s) {
        long after = s.fallback().delay().toMillis();
        return s.sequencedAt() + (s.digest() == null ? after : Math.max(after, s.digest().length().toMillis()));
    }

    /**
     * The push sender's outcomes of a written push fallback, one row per attempt in time order, then a
     * row for each registration of the record with no outcome yet; nothing for any other fallback.
     */
    private void pushed() {
        Looked<PushOutcome> push = e.push();
        if (push.state() == Looked.State.SKIPPED) {
            return;
        }
        if (push.isEmpty()) {
            add(null, "push", absent(push) + (push.state() == Looked.State.MISSING ? ""
                    : ": the push sender has not taken the fallback record yet (lag), or does not run"), facts("outcome", "missing"));
            return;
        }
        List<PushOutcome> attempts = push.records().stream().sorted(Comparator.comparingLong(PushOutcome::at)).toList();
        for (PushOutcome o : attempts) {
            add(o.at(), "push", PushAttempts.describe(o, e.question().user()), facts("outcome", o.outcome().wireName(), "provider", o.provider(),
                    "registration", o.registration(), "attempt", o.attempt(), "status", o.status() > 0 ? o.status() : null,
                    "reason", o.reason(), "providerId", o.providerId()));
        }
        FallbackRecord f = e.fallback().isEmpty() ? null : e.fallback().first();
        for (PushRegistration r : f == null ? List.<PushRegistration>of() : f.push()) {
            if (attempts.stream().noneMatch(o -> r.id().equals(o.registration()))) {
                add(null, "push", "no outcome for " + r.provider() + " registration " + r.id() + " " + where(push)
                        + ": not sent yet (the push sender lags or retries)", facts("outcome", "missing", "provider", r.provider(),
                        "registration", r.id()));
            }
        }
    }

    private String absent(Looked<?> looked) {
        return looked.state() == Looked.State.MISSING ? "topic " + looked.topic() + " does not exist"
                : "not found in " + looked.topic() + " " + span(looked);
    }

    private String where(Looked<?> looked) {
        return "in " + looked.topic() + " " + span(looked);
    }

    private String span(Looked<?> looked) {
        return "between " + instant(looked.from(), "the first record") + " and " + instant(looked.to(), "the end");
    }

    private String instant(Instant at, String otherwise) {
        return at == null ? otherwise : time.format(at.toEpochMilli());
    }

    /** Facts from name, value pairs; null values are left out. */
    private static Map<String, Object> facts(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                m.put((String) pairs[i], pairs[i + 1]);
            }
        }
        return m;
    }

    private void add(Long at, String step, String detail, Map<String, Object> facts) {
        steps.add(new Step(at, step, detail, facts));
    }
}
