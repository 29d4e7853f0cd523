package io.notify.cli.why;

import io.notify.cli.replay.Routing;
import io.notify.cli.why.Evidence.Copy;
import io.notify.cli.why.Evidence.Rejection;
import io.notify.cli.why.Evidence.Sequenced;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** What the timeline tests build their evidence from: an event of user 42, its copies, log and fallback, and the lookups of steps. */
final class TimelineFixtures {

    private TimelineFixtures() {
    }

    static final StreamId U42 = StreamId.forUser("42");
    static final long T = Instant.parse("2026-12-04T09:00:00Z").toEpochMilli();
    static final Instant FROM = Instant.ofEpochMilli(T).minusSeconds(3600);
    static final Instant TO = Instant.ofEpochMilli(T).plusSeconds(3600);
    static final String ID = "ord-1:shipped";

    static SequencedEvent event(Fallback fallback) {
        return new SequencedEvent(U42, "ep1", 17, ID, "order.shipped", null, null, "orders", T, T + 23, fallback, null);
    }

    static final SequencedEvent WITH_FALLBACK = event(new Fallback("2m", "push"));
    static final long DUE = T + 23 + 120_000;

    static Copy copy(int partition, long offset, long ts) {
        return new Copy(partition, offset, ts, "u:42", null, List.of("42", "43"));
    }

    static Looked<Sequenced> log(SequencedEvent... events) {
        List<Sequenced> s = new ArrayList<>();
        for (int i = 0; i < events.length; i++) {
            s.add(new Sequenced(5, 100 + i, T, events[i]));
        }
        return Looked.read("notify.stream-log", FROM, TO, s);
    }

    static Evidence evidence(Instant now, List<Copy> copies, Looked<Rejection> dlq, Looked<Sequenced> log,
                                     List<Routing> routes, List<Receipt> receipts, List<FallbackRecord> fallbacks) {
        return evidence(now, copies, dlq, log, routes, receipts, fallbacks, Looked.skipped("notify.push-outcomes"));
    }

    static Evidence evidence(Instant now, List<Copy> copies, Looked<Rejection> dlq, Looked<Sequenced> log,
                                     List<Routing> routes, List<Receipt> receipts, List<FallbackRecord> fallbacks,
                                     Looked<PushOutcome> push) {
        return new Evidence(new Question("42", ID, FROM, TO), now, Looked.read("notify.events", FROM, TO, copies), dlq, log,
                Looked.read("notify.node.<node> or notify.undelivered", FROM, TO, routes),
                Looked.read("notify.receipts", FROM, TO, receipts), Looked.read("notify.fallback", FROM, TO, fallbacks), push);
    }

    static Step step(Timeline t, String name) {
        return t.steps().stream().filter(s -> s.step().equals(name)).findFirst().orElseThrow(() -> new AssertionError(
                "no step " + name + " in " + t.steps()));
    }

    static List<Step> steps(Timeline t, String name) {
        return t.steps().stream().filter(s -> s.step().equals(name)).toList();
    }

    static FallbackRecord pushFallback(List<PushRegistration> push) {
        return new FallbackRecord("u:42", "42", "push", FallbackRecord.Reason.NO_DEVICE, WITH_FALLBACK, List.of(), DUE, DUE + 357,
                push);
    }
}
