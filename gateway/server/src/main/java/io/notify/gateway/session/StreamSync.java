package io.notify.gateway.session;

import io.notify.common.logging.LogFields;
import io.notify.gateway.disconnect.Disconnect;
import io.notify.gateway.resume.FetchRequest;
import io.notify.gateway.resume.FetchResult;
import io.notify.gateway.session.Effect.Count;
import io.notify.gateway.session.StreamCursor.Step;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.protocol.frame.ResetFrame;
import io.notify.protocol.frame.ResetReason;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stream of one session: turns what its {@link StreamCursor} decides into {@link Effect}s — events
 * to send (a fetched page with its superseded events as {@code collapsed} frames, {@link CollapsePlan},
 * for the types the node collapses), fetches of missed ranges, resets — and retries failed fetches with
 * full-jitter backoff while live events keep being held (bounded). Guarantees: at most one fetch in
 * flight; a fetch that keeps failing for {@code resume-give-up} closes the connection with 1013, so a
 * client is never left silently behind. It decides and counts, nothing more: every method takes an
 * input (a live event, a fetch's answer, a tick, an alarm) and returns what the session is to do; it
 * holds no session and performs no I/O. Its session calls it under its lock.
 */
final class StreamSync {

    /** What a {@link Effect.Wake} wakes it for. */
    enum Alarm {
        /** A failed fetch's retry. */
        RETRY,
        /** A follow-up recheck, made only if events a recheck left to the live path have not all come. */
        RECHECK
    }

    private static final Logger LOG = LoggerFactory.getLogger(StreamSync.class);
    private static final long MIN_RETRY_MS = 50;
    private static final long NO_RECHECK = Long.MAX_VALUE;
    /** Follow-up rechecks after a lost registration, before the periodic interval takes over. */
    static final byte QUICK_RECHECKS = 3;
    /** Recalls of seqs not sent yet that a stream notes; beyond it a held or fetched copy would go with its content. */
    static final int MAX_RECALLED_AHEAD = 64;

    private final StreamCursor cursor;
    private final SessionContext ctx; // the node's settings, metrics and clock: nothing here calls its collaborators
    private final String connection; // for log lines
    private final Position subscribedFrom; // a room's: where its subscribe asked to start (null: at the head)
    private int failures;
    private long firstFailureNanos;
    private boolean rechecking;
    private boolean recheckScheduled;
    private long recheckDueNanos = NO_RECHECK;
    private byte quickRechecks; // follow-up rechecks left at doubling recheck-after spacing after a lost registration
    private long behindSinceNanos; // when the inbox was first seen behind this stream's position; 0: it is not
    private Set<Position> recalledAhead; // recalls of seqs not sent yet (recalled()); null: none, nearly always

    StreamSync(StreamId stream, Position subscribedFrom, String connection, SessionContext ctx) {
        this.cursor = new StreamCursor(stream, ctx.config().limits().pendingMaxEvents());
        this.subscribedFrom = subscribedFrom;
        this.connection = connection;
        this.ctx = ctx;
    }

    StreamId stream() {
        return cursor.stream();
    }

    /** The head the anchor read found (null: none yet, no history, or no answer). */
    Position anchorHead() {
        return cursor.anchorHead();
    }

    /** The last position sent to the client (or adopted from it); null when none yet. */
    Position position() {
        return cursor.position();
    }

    /** The head read: the anchor of a fresh start, made before the client is welcomed (or told {@code subscribed}). */
    FetchRequest anchorRequest() {
        return new FetchRequest(stream(), null, 1);
    }

    /**
     * The head read's answer. Without a page the connection is served anyway and a fresh start takes
     * the first live event as its start.
     */
    void anchored(FetchResult result) {
        if (result instanceof FetchResult.Page page) {
            cursor.presetAnchor(page.head());
            return;
        }
        ctx.metrics().anchorUnknown();
        try (LogFields f = ctx.logFields(connection, stream())) {
            LOG.debug("connection {}: no anchor for {} ({}); a fresh start begins at the first live event", connection, stream(), result);
        }
    }

    /** A room's start once its head is known: replay from its subscribe's position, or start at the head. */
    List<Effect> startSubscribed() {
        return subscribedFrom == null ? startFresh() : resumeFrom(subscribedFrom);
    }

    /** The client's position: fetch what follows it. */
    List<Effect> resumeFrom(Position position) {
        cursor.resumeFrom(position);
        return List.of(fetch());
    }

    /** The client has no position: start at the anchor read before its welcome, then live. */
    List<Effect> startFresh() {
        List<Effect> out = new ArrayList<>();
        apply(cursor.startFresh(), null, null, out);
        scheduleFirstRecheck();
        return out;
    }

    /**
     * The common case of a live durable event: true when it is the next one, which the session then
     * sends at once (and the caller counts for the whole fan-out); nothing is built for it.
     */
    boolean advanceLive(SequencedEvent event) {
        return recalledAhead == null && cursor.advanceLive(event); // with a recall ahead it goes the way that checks it
    }

    /**
     * Its producer recalled the event at {@code at} (docs/protocol.md, "Recall"): true when the client was sent that
     * seq, so the {@code recalled} frame is for it. Else the seq is noted (at most {@value #MAX_RECALLED_AHEAD}), so that
     * the event, if it is still to be sent (held live while a fetch is in flight, or in a page read before the recall),
     * goes as its position only, a {@code collapsed} frame with reason {@code recalled}, as the inbox now has it.
     */
    boolean recalled(Position at) {
        Position sent = cursor.position();
        if (sent != null && sent.epoch().equals(at.epoch()) && at.seq() <= sent.seq()) {
            return true;
        }
        if (recalledAhead == null) {
            recalledAhead = new HashSet<>(4);
        }
        if (recalledAhead.size() < MAX_RECALLED_AHEAD) {
            recalledAhead.add(at);
        } else {
            ctx.metrics().recallsNotNoted(); // its content goes if it comes: a client this far behind catches up from the inbox
        }
        return false;
    }

    /** {@code e} as it is to be sent: recalled when a recall of its seq came before it ({@link #recalled}). */
    private SequencedEvent unlessRecalled(SequencedEvent e) {
        return recalledAhead != null && recalledAhead.remove(e.position()) ? e.asRecalled() : e;
    }

    /**
     * Forgets the noted recalls the position has passed (their seqs went out, or never will here) and those of another
     * epoch than the position's (a history this client no longer follows, or not yet: the inbox's copy is recalled
     * either way): live goes the short way again.
     */
    private void forgetPassedRecalls() {
        Position sent = cursor.position();
        if (recalledAhead == null || sent == null) {
            return;
        }
        recalledAhead.removeIf(p -> !p.epoch().equals(sent.epoch()) || p.seq() <= sent.seq());
        if (recalledAhead.isEmpty()) {
            recalledAhead = null;
        }
    }

    /** Any other live durable event (held, a duplicate, a gap to fetch): its effects, counted here. */
    List<Effect> offerLive(SequencedEvent event, OutboundFrame encoded) {
        List<Effect> out = new ArrayList<>(2);
        apply(cursor.offerLive(event), event, encoded, out);
        return out;
    }

    /**
     * The sweeper's tick: a periodic recheck that is due, a safety net for events that never reached
     * this node (a registration the router did not see yet, Redis down, a lookup timeout). A deadline
     * the node's sweeper checks, not a scheduled task per connection.
     */
    List<Effect> tick(long nowNanos) {
        if (recheckDueNanos == NO_RECHECK || nowNanos - recheckDueNanos < 0) {
            return List.of();
        }
        List<Effect> out = new ArrayList<>(1);
        checkNow(out);
        recheckIn(nextRecheckDelay());
        return out;
    }

    /** A {@link Effect.Wake} came due. */
    List<Effect> woke(Alarm alarm) {
        List<Effect> out = new ArrayList<>(1);
        if (alarm == Alarm.RETRY) {
            out.add(fetch());
        } else if (cursor.awaitingLive()) {
            checkNow(out);
        }
        return out;
    }

    /**
     * This connection's registration did not reach the registry (Redis failing or failing over, a
     * write not confirmed in time): routers send its events nowhere until the heartbeat writes it
     * again, and when no later event reveals the gap only a recheck brings them. So a recheck comes
     * {@code recheck-after} from now and {@value #QUICK_RECHECKS} more at doubling spacing (2, 6, 14,
     * 30 s with the defaults), then the periodic ones: the events a repair lags behind arrive within
     * seconds of it rather than at the next {@code recheck-interval}.
     */
    void registrationLost() {
        Duration first = ctx.config().recheckAfter();
        if (first.isZero()) {
            return; // rechecks are off
        }
        quickRechecks = QUICK_RECHECKS;
        long due = System.nanoTime() + first.toNanos();
        if (recheckDueNanos == NO_RECHECK || due - recheckDueNanos < 0) {
            recheckDueNanos = due;
        }
    }

    /** A fetch's answer (a failure included: no answer in time is {@link FetchResult.Failed}). */
    List<Effect> onFetched(FetchResult result) {
        List<Effect> out = new ArrayList<>();
        boolean wasRecheck = rechecking;
        rechecking = false;
        if (result instanceof FetchResult.Page page) {
            behindSinceNanos = 0;
            Step step = wasRecheck
                    ? cursor.applyRecheckPage(page.events(), page.more(), ctx.clock().millis() - ctx.config().recheckGrace().toMillis())
                    : cursor.applyPage(page.events(), page.more());
            if (wasRecheck) {
                ctx.metrics().recheckFound(step.fetched());
                if (cursor.youngLeft()) {
                    // Events younger than the grace may still be on the live path: look again once they are not.
                    out.add(new Effect.Wake(this, Alarm.RECHECK, Math.max(1, ctx.config().recheckGrace().toMillis())));
                }
            }
            if (step.progress()) {
                failures = 0;
            }
            if (step.fetch() && !step.progress()) {
                sendAll(step, null, null, out);
                retryLater("the inbox did not continue from " + cursor.position(), out);
            } else {
                apply(step, null, null, out);
            }
        } else if (result instanceof FetchResult.Reset reset && inboxBehind(reset.frame())) {
            retryLater("the inbox is behind position " + cursor.position() + " (head " + reset.frame().head() + ")", out);
        } else if (result instanceof FetchResult.Reset reset) {
            behindSinceNanos = 0;
            failures = 0;
            out.add(Effect.Send.positioned(OutboundFrame.control(reset.frame()), stream(), reset.frame().head()));
            ctx.metrics().reset(reset.frame().reason().wireName());
            apply(cursor.applyReset(reset.frame().head()), null, null, out);
        } else {
            retryLater(((FetchResult.Failed) result).detail(), out);
        }
        scheduleFirstRecheck();
        return out;
    }

    private void recheckIn(Duration delay) {
        recheckDueNanos = delay.isZero() ? NO_RECHECK : System.nanoTime() + delay.toNanos();
    }

    private Duration nextRecheckDelay() {
        Duration interval = ctx.config().recheckInterval();
        if (quickRechecks == 0) {
            return interval;
        }
        Duration quick = ctx.config().recheckAfter().multipliedBy(1L << (QUICK_RECHECKS + 1 - quickRechecks));
        quickRechecks--;
        return interval.isZero() || quick.compareTo(interval) < 0 ? quick : interval;
    }

    /** Asks the inbox what follows the position, unless a fetch is outstanding. */
    private void checkNow(List<Effect> out) {
        Step step = cursor.recheck();
        if (step.fetch()) {
            rechecking = true;
            ctx.metrics().recheck();
            apply(step, null, null, out);
        }
    }

    /**
     * Whether an {@code epoch_mismatch} only says that the inbox has not caught up with the position
     * yet: same epoch, head behind it. The live path can be a commit ahead of the inbox (both become
     * visible when fanout-streams commits, the node topic first), so for up to
     * {@code recheck-grace} this is retried, not reset; a head still behind after that is a real
     * mismatch (a history lost and re-created in the same epoch) and the reset goes to the client.
     */
    private boolean inboxBehind(ResetFrame reset) {
        Position at = cursor.position();
        if (reset.reason() != ResetReason.EPOCH_MISMATCH || reset.head() == null || at == null
                || !reset.head().epoch().equals(at.epoch()) || reset.head().seq() >= at.seq()) {
            return false;
        }
        long now = System.nanoTime();
        if (behindSinceNanos == 0) {
            behindSinceNanos = now;
        }
        if (now - behindSinceNanos <= ctx.config().recheckGrace().toNanos()) {
            ctx.metrics().inboxBehind();
            return true;
        }
        return false;
    }

    /** The first recheck counts from when the stream went live (once). */
    private void scheduleFirstRecheck() {
        if (!recheckScheduled && !cursor.syncing()) {
            recheckScheduled = true;
            recheckIn(ctx.config().recheckAfter());
        }
    }

    private void apply(Step step, SequencedEvent live, OutboundFrame liveFrame, List<Effect> out) {
        sendAll(step, live, liveFrame, out);
        if (step.gap()) {
            ctx.metrics().gapFill();
        }
        if (step.fetch()) {
            out.add(fetch());
        }
    }

    /**
     * The step's events in order; a fetched page of which some events are superseded (docs/protocol.md,
     * "Collapsed catch-up") as its events and {@code collapsed} frames in seq order. The cursor has moved
     * over the whole page, so a live copy of a collapsed seq is a duplicate; a collapsed frame is
     * positioned at its {@code to} like the event it stands in for.
     */
    private void sendAll(Step step, SequencedEvent live, OutboundFrame liveFrame, List<Effect> out) {
        ctx.metrics().duplicatesDropped(step.duplicates());
        int i = 0;
        // A page read before a recall reached the inbox is planned as the inbox now has it: a recalled event supersedes nothing.
        CollapsePlan plan = step.fetched() > 1 && ctx.config().collapse().on()
                ? CollapsePlan.of(step.send().subList(0, step.fetched()).stream().map(this::unlessRecalled).toList(),
                        ctx.config().collapse()::collapses) : null;
        if (plan != null) {
            ctx.metrics().collapsed(plan.collapsed()); // once per page
            for (CollapsePlan.Entry entry : plan.entries()) {
                if (entry instanceof CollapsePlan.Send send) {
                    out.add(event(OutboundFrame.event(send.event(), false), send.event(), Count.REPLAYED));
                } else if (entry instanceof CollapsePlan.Skip skip) {
                    out.add(Effect.Send.positioned(OutboundFrame.collapsed(skip.frame()), stream(), skip.frame().position()));
                }
            }
            i = step.fetched(); // the rest came live: never collapsed
        }
        for (; i < step.send().size(); i++) {
            SequencedEvent e = step.send().get(i);
            SequencedEvent sent = unlessRecalled(e);
            OutboundFrame frame = sent == live ? liveFrame : OutboundFrame.event(sent, false);
            out.add(event(frame, e, i < step.fetched() ? Count.REPLAYED : Count.LIVE)); // held live events released after a page count live
        }
        forgetPassedRecalls();
    }

    private static Effect.Send event(OutboundFrame frame, SequencedEvent e, Count count) {
        return new Effect.Send(frame, e.stream(), e.position(), count);
    }

    private Effect.Fetch fetch() {
        return new Effect.Fetch(this, new FetchRequest(stream(), cursor.position(), ctx.config().queryPageSize()), false);
    }

    private void retryLater(String why, List<Effect> out) {
        long now = System.nanoTime();
        if (failures++ == 0) {
            firstFailureNanos = now;
        }
        if (now - firstFailureNanos > ctx.config().resumeGiveUp().toNanos()) {
            try (LogFields f = ctx.logFields(connection, stream())) {
                LOG.warn("connection {}: giving up fetching {} after {} attempts ({}); closing with 1013",
                        connection, stream(), failures, why);
            }
            out.add(new Effect.Close(Disconnect.RESUME_UNAVAILABLE, null));
            return;
        }
        long cap = Math.min(ctx.config().resumeRetryMax().toMillis(), MIN_RETRY_MS << Math.min(failures, 20));
        long delay = MIN_RETRY_MS + ThreadLocalRandom.current().nextLong(Math.max(1, cap));
        if (LOG.isDebugEnabled()) {
            try (LogFields f = ctx.logFields(connection, stream())) {
                LOG.debug("connection {}: fetch of {} failed ({}); retry {} in {} ms", connection, stream(), why, failures, delay);
            }
        }
        ctx.metrics().resumeRetry();
        out.add(new Effect.Wake(this, Alarm.RETRY, delay));
    }
}
