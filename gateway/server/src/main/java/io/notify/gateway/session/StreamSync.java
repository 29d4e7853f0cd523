package io.notify.gateway.session;

import io.notify.common.logging.LogFields;
import io.notify.gateway.admission.Limit;
import io.notify.gateway.resume.FetchRequest;
import io.notify.gateway.resume.FetchResult;
import io.notify.gateway.session.StreamCursor.Step;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.protocol.frame.ResetFrame;
import io.notify.protocol.frame.ResetReason;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stream of one session: carries out what its {@link StreamCursor} decides — sends events (a
 * fetched page with its superseded events as {@code collapsed} frames, {@link CollapsePlan}, for the
 * types the node collapses), fetches missed ranges from the query API, sends resets — and retries
 * failed fetches with full-jitter backoff while live events keep being held (bounded). Guarantees:
 * at most one fetch in flight; a fetch that keeps failing for {@code resume-give-up} closes the
 * connection with 1013, so a client is never left silently behind. Every method runs under the
 * session's lock.
 */
final class StreamSync {

    private static final Logger LOG = LoggerFactory.getLogger(StreamSync.class);
    private static final long MIN_RETRY_MS = 50;
    private static final long NO_RECHECK = Long.MAX_VALUE;
    /** Follow-up rechecks after a lost registration, before the periodic interval takes over. */
    static final byte QUICK_RECHECKS = 3;

    private final Session session;
    private final StreamCursor cursor;
    private final SessionContext ctx;
    private int failures;
    private long firstFailureNanos;
    private boolean rechecking;
    private boolean recheckScheduled;
    private long recheckDueNanos = NO_RECHECK;
    private byte quickRechecks; // follow-up rechecks left at doubling recheck-after spacing after a lost registration
    private java.util.concurrent.CompletableFuture<FetchResult> anchorRead; // until welcome: the head read, withdrawable
    private long behindSinceNanos; // when the inbox was first seen behind this stream's position; 0: it is not

    StreamSync(Session session, StreamId stream, SessionContext ctx) {
        this.session = session;
        this.cursor = new StreamCursor(stream, ctx.config().limits().pendingMaxEvents());
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

    /** The client's position; the caller then starts the first fetch ({@link #fetchNow}). */
    void resumeFrom(Position position) {
        cursor.resumeFrom(position);
    }

    /** The client has no position: start at the anchor read before its welcome, then live. */
    void startFresh() {
        apply(cursor.startFresh(), null, null);
        scheduleFirstRecheck();
    }

    /**
     * Reads the stream's head before the client is welcomed (or told {@code subscribed}): one
     * batched query entry, the anchor of a fresh start; then, if {@code wanted} still holds, runs
     * {@code then} under the session's lock. Without an answer the connection is served anyway and a
     * fresh start takes the first live event as its start.
     */
    void readAnchor(java.util.function.BooleanSupplier wanted, Runnable then) {
        anchorRead = ctx.resumeSource().fetch(new FetchRequest(stream(), null, 1)).toCompletableFuture();
        anchorRead.orTimeout(ctx.config().fetchDeadline().toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((result, error) -> session.runLocked(() -> {
                    anchorRead = null;
                    if (!wanted.getAsBoolean()) {
                        return; // welcomed meanwhile (its resume came first), or unsubscribed: the anchor is not needed
                    }
                    if (result instanceof FetchResult.Page page) {
                        cursor.presetAnchor(page.head());
                    } else {
                        ctx.metrics().anchorUnknown();
                        try (LogFields f = session.logFields(stream())) {
                            LOG.debug("connection {}: no anchor for {} ({}); a fresh start begins at the first live event",
                                    session.id(), stream(), error != null ? error : result);
                        }
                    }
                    then.run();
                }));
    }

    /**
     * The head read is not needed any more (a resume with positions came first and was welcomed):
     * completing it tells the resume batcher not to send it, if it still waits there
     * ({@code BatchingResumeSource}: a withdrawn fetch), so the query API is not asked at all.
     * Call after the welcome (under the session's lock): the completion then finds nothing to do.
     */
    void withdrawAnchor() {
        java.util.concurrent.CompletableFuture<FetchResult> read = anchorRead;
        anchorRead = null;
        if (read != null) {
            read.complete(new FetchResult.Failed(stream(), "withdrawn: the client resumed before welcome"));
        }
    }

    /**
     * A safety net for events that never reached this node (a registration the router did not see
     * yet, Redis down, a lookup timeout): ask the inbox what follows the position, now and then.
     * The periodic rechecks are a deadline that the node's sweeper checks ({@link #tick}), not a
     * scheduled task per connection.
     */
    private void recheckIn(java.time.Duration delay) {
        recheckDueNanos = delay.isZero() ? NO_RECHECK : System.nanoTime() + delay.toNanos();
    }

    /** The sweeper's tick (under the session's lock): runs a periodic recheck that is due. */
    void tick(long nowNanos) {
        if (recheckDueNanos != NO_RECHECK && nowNanos - recheckDueNanos >= 0) {
            recheckDueNanos = NO_RECHECK;
            if (checkNow()) {
                recheckIn(nextRecheckDelay());
            }
        }
    }

    /**
     * This connection's registration did not reach the registry (Redis failing or failing over, a
     * write not confirmed in time): routers send its events nowhere until the heartbeat writes it
     * again, and when no later event reveals the gap only a recheck brings them. So a recheck comes
     * {@code recheck-after} from now and {@value #QUICK_RECHECKS} more at doubling spacing (2, 6, 14,
     * 30 s with the defaults), then the periodic ones: the events a repair lags behind arrive within
     * seconds of it rather than at the next {@code recheck-interval}. Under the session's lock.
     */
    void registrationLost() {
        java.time.Duration first = ctx.config().recheckAfter();
        if (first.isZero()) {
            return; // rechecks are off
        }
        quickRechecks = QUICK_RECHECKS;
        long due = System.nanoTime() + first.toNanos();
        if (recheckDueNanos == NO_RECHECK || due - recheckDueNanos < 0) {
            recheckDueNanos = due;
        }
    }

    private java.time.Duration nextRecheckDelay() {
        java.time.Duration interval = ctx.config().recheckInterval();
        if (quickRechecks == 0) {
            return interval;
        }
        java.time.Duration quick = ctx.config().recheckAfter().multipliedBy(1L << (QUICK_RECHECKS + 1 - quickRechecks));
        quickRechecks--;
        return interval.isZero() || quick.compareTo(interval) < 0 ? quick : interval;
    }

    /**
     * A follow-up recheck after events were left to the live path, made only if they have not all
     * come live by then (so a busy stream is not rechecked every grace); the periodic ones go on.
     */
    private void scheduleRecheckOnce(java.time.Duration delay) {
        ctx.timer().schedule(() -> session.runLocked(() -> {
            if (cursor.awaitingLive()) {
                checkNow();
            }
        }), Math.max(1, delay.toMillis()), TimeUnit.MILLISECONDS);
    }

    /** Asks the inbox what follows the position, unless a fetch is outstanding; false once the session ended. */
    private boolean checkNow() {
        if (!session.isActive()) {
            return false;
        }
        Step step = cursor.recheck();
        if (step.fetch()) {
            rechecking = true;
            ctx.metrics().recheck();
            apply(step, null, null);
        }
        return true;
    }

    /**
     * A live durable event. True when it was the next one and went out at once (the common case, which
     * the caller counts for the whole fan-out); false when the cursor decided otherwise (held, a
     * duplicate, a gap to fetch: handled and counted here) or the connection is closing.
     */
    boolean offerLive(SequencedEvent event, OutboundFrame encoded) {
        if (cursor.advanceLive(event)) {
            return session.send(encoded, event);
        }
        apply(cursor.offerLive(event), event, encoded);
        return false;
    }

    void onFetched(FetchResult result) {
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
                    scheduleRecheckOnce(ctx.config().recheckGrace());
                }
            }
            if (step.progress()) {
                failures = 0;
            }
            if (step.fetch() && !step.progress()) {
                sendAll(step, null, null);
                retryLater("the inbox did not continue from " + cursor.position());
            } else {
                apply(step, null, null);
            }
        } else if (result instanceof FetchResult.Reset reset && inboxBehind(reset.frame())) {
            retryLater("the inbox is behind position " + cursor.position() + " (head " + reset.frame().head() + ")");
        } else if (result instanceof FetchResult.Reset reset) {
            behindSinceNanos = 0;
            failures = 0;
            if (!session.send(OutboundFrame.control(reset.frame()), stream(), reset.frame().head())) {
                return;
            }
            ctx.metrics().reset(reset.frame().reason().wireName());
            apply(cursor.applyReset(reset.frame().head()), null, null);
        } else {
            retryLater(((FetchResult.Failed) result).detail());
        }
        scheduleFirstRecheck();
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

    private void apply(Step step, SequencedEvent live, OutboundFrame liveFrame) {
        if (!sendAll(step, live, liveFrame)) {
            return;
        }
        if (step.gap()) {
            ctx.metrics().gapFill();
        }
        if (step.fetch()) {
            fetchNow();
        }
    }

    private boolean sendAll(Step step, SequencedEvent live, OutboundFrame liveFrame) {
        ctx.metrics().duplicatesDropped(step.duplicates());
        int i = 0;
        CollapsePlan plan = step.fetched() > 1 && ctx.config().collapse().on()
                ? CollapsePlan.of(step.send().subList(0, step.fetched()), ctx.config().collapse()::collapses) : null;
        if (plan != null) {
            if (!sendPlan(plan)) {
                return false;
            }
            i = step.fetched(); // the rest came live: never collapsed
        }
        for (; i < step.send().size(); i++) {
            SequencedEvent e = step.send().get(i);
            boolean isLive = e == live;
            if (!session.send(isLive ? liveFrame : OutboundFrame.event(e, false), e)) {
                return false;
            }
            ctx.metrics().delivered(true, i < step.fetched()); // held live events released after a page came live
        }
        return true;
    }

    /**
     * A fetched page of which some events are superseded (docs/protocol.md, "Collapsed catch-up"): its
     * events and {@code collapsed} frames in seq order. The cursor has moved over the whole page, so a
     * live copy of a collapsed seq is a duplicate; a collapsed frame is positioned at its {@code to}
     * (the SSE id, composite with rooms) like the event it stands in for.
     */
    private boolean sendPlan(CollapsePlan plan) {
        ctx.metrics().collapsed(plan.collapsed()); // once per page
        for (CollapsePlan.Entry entry : plan.entries()) {
            if (entry instanceof CollapsePlan.Send send) {
                if (!session.send(OutboundFrame.event(send.event(), false), send.event())) {
                    return false;
                }
                ctx.metrics().delivered(true, true);
            } else if (entry instanceof CollapsePlan.Skip skip
                    && !session.send(OutboundFrame.collapsed(skip.frame()), stream(), skip.frame().position())) {
                return false;
            }
        }
        return true;
    }

    void fetchNow() {
        if (!session.isActive()) {
            return;
        }
        FetchRequest request = request();
        ctx.resumeSource().fetch(request).toCompletableFuture()
                .orTimeout(ctx.config().fetchDeadline().toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((result, error) -> session.onFetched(this, result != null ? result
                        : new FetchResult.Failed(stream(), "no answer: " + error)));
    }

    private FetchRequest request() {
        return new FetchRequest(stream(), cursor.position(), ctx.config().queryPageSize());
    }

    private void retryLater(String why) {
        long now = System.nanoTime();
        if (failures++ == 0) {
            firstFailureNanos = now;
        }
        if (now - firstFailureNanos > ctx.config().resumeGiveUp().toNanos()) {
            try (LogFields f = session.logFields(stream())) {
                LOG.warn("connection {}: giving up fetching {} after {} attempts ({}); closing with 1013",
                        session.id(), stream(), failures, why);
            }
            session.hit(Limit.RESUME_UNAVAILABLE, null);
            return;
        }
        long cap = Math.min(ctx.config().resumeRetryMax().toMillis(), MIN_RETRY_MS << Math.min(failures, 20));
        long delay = MIN_RETRY_MS + ThreadLocalRandom.current().nextLong(Math.max(1, cap));
        if (LOG.isDebugEnabled()) {
            try (LogFields f = session.logFields(stream())) {
                LOG.debug("connection {}: fetch of {} failed ({}); retry {} in {} ms", session.id(), stream(), why, failures, delay);
            }
        }
        ctx.metrics().resumeRetry();
        ctx.timer().schedule(() -> session.runLocked(this::fetchNow), delay, TimeUnit.MILLISECONDS);
    }
}
