package io.notify.gateway.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.gateway.session.StreamCursor.Step;
import io.notify.gateway.support.Events;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamCursorTest {

    private static final StreamId U = StreamId.forUser("42");
    private static final String E = "epoch1";

    private static SequencedEvent ev(long seq) {
        return Events.durable(U, E, seq);
    }

    private static List<Long> seqs(Step step) {
        return step.send().stream().map(SequencedEvent::seq).toList();
    }

    private static StreamCursor liveAt(long seq) {
        StreamCursor c = new StreamCursor(U, 100);
        c.resumeFrom(new Position(E, seq));
        c.applyPage(List.of(), false);
        return c;
    }

    @Test
    void holdsEverythingUntilTheClientSaysWhereItStands() {
        StreamCursor c = new StreamCursor(U, 100);
        assertEquals(List.of(), seqs(c.offerLive(ev(5))));
        assertEquals(1, c.pendingCount());
        Step start = c.startLive();
        assertEquals(List.of(5L), seqs(start), "no position: the first event is the start");
        assertEquals(new Position(E, 5), c.position());
    }

    @Test
    void sendsConsecutiveSeqsAndDropsDuplicates() {
        StreamCursor c = liveAt(10);
        assertEquals(List.of(11L), seqs(c.offerLive(ev(11))));
        Step dup = c.offerLive(ev(11));
        assertEquals(List.of(), seqs(dup));
        assertEquals(1, dup.duplicates());
        assertEquals(1, c.offerLive(ev(3)).duplicates());
        assertEquals(List.of(12L), seqs(c.offerLive(ev(12))));
    }

    @Test
    void aGapHoldsLiveEventsAndAsksForTheMissingRangeOnce() {
        StreamCursor c = liveAt(10);
        Step gap = c.offerLive(ev(13));
        assertTrue(gap.gap());
        assertTrue(gap.fetch());
        assertEquals(new Position(E, 10), c.position(), "fetch after the last sent seq");
        Step more = c.offerLive(ev(14));
        assertFalse(more.fetch(), "one fetch at a time");
        Step filled = c.applyPage(List.of(ev(11), ev(12), ev(13)), false);
        assertEquals(List.of(11L, 12L, 13L, 14L), seqs(filled));
        assertEquals(1, filled.duplicates(), "13 came both ways");
        assertFalse(filled.fetch());
        assertFalse(c.syncing());
    }

    @Test
    void resumeMergesReplayAndLiveEventsInOrderWithoutDuplicates() {
        StreamCursor c = new StreamCursor(U, 100);
        c.offerLive(ev(20)); // arrived between registration and the resume frame
        Step resume = c.resumeFrom(new Position(E, 15));
        assertTrue(resume.fetch());
        c.offerLive(ev(21)); // arrived while the fetch was in flight
        c.offerLive(ev(19));
        Step page1 = c.applyPage(List.of(ev(16), ev(17), ev(18)), true);
        assertEquals(List.of(16L, 17L, 18L), seqs(page1));
        assertTrue(page1.fetch(), "more: ask again after 18");
        assertEquals(new Position(E, 18), c.position());
        Step page2 = c.applyPage(List.of(ev(19), ev(20)), false);
        assertEquals(List.of(19L, 20L, 21L), seqs(page2));
        assertEquals(2, page2.duplicates());
        assertFalse(c.syncing());
        assertEquals(List.of(22L), seqs(c.offerLive(ev(22))));
    }

    @Test
    void aResetAdoptsTheHeadAndReleasesLaterEventsOnly() {
        StreamCursor c = new StreamCursor(U, 100);
        c.resumeFrom(new Position("old", 500));
        c.offerLive(ev(3));
        c.offerLive(ev(4));
        Step reset = c.applyReset(new Position(E, 3));
        assertEquals(List.of(4L), seqs(reset));
        assertEquals(1, reset.duplicates());
    }

    @Test
    void anUnknownStreamResetStartsAtTheNextEvent() {
        StreamCursor c = new StreamCursor(U, 100);
        c.resumeFrom(new Position(E, 5));
        Step reset = c.applyReset(null);
        assertEquals(List.of(), seqs(reset));
        assertNull(c.position());
        assertEquals(List.of(1L), seqs(c.offerLive(ev(1))));
    }

    @Test
    void aNewEpochLiveIsHeldAndSentToTheInboxForAReset() {
        StreamCursor c = liveAt(10);
        Step step = c.offerLive(Events.durable(U, "epoch2", 1));
        assertTrue(step.fetch());
        assertEquals(List.of(), seqs(step));
        Step reset = c.applyReset(new Position("epoch2", 0 + 1));
        assertEquals(List.of(), seqs(reset), "seq 1 is the head: the client reloads state, then continues after it");
        assertEquals(List.of(2L), seqs(c.offerLive(Events.durable(U, "epoch2", 2))));
    }

    @Test
    void aFullHoldBufferCostsARefetchNeverAnEvent() {
        StreamCursor c = new StreamCursor(U, 2);
        c.resumeFrom(new Position(E, 10));
        c.offerLive(ev(11));
        c.offerLive(ev(12));
        c.offerLive(ev(13)); // over the bound: discarded
        Step afterPage = c.applyPage(List.of(), false);
        assertEquals(List.of(11L, 12L), seqs(afterPage));
        assertTrue(afterPage.fetch(), "13 was discarded: fetch again");
        Step refill = c.applyPage(List.of(ev(13)), false);
        assertEquals(List.of(13L), seqs(refill));
        assertFalse(refill.fetch());
    }

    @Test
    void anInboxThatDoesNotContinueIsNoProgress() {
        StreamCursor c = new StreamCursor(U, 10);
        c.resumeFrom(new Position(E, 10));
        Step odd = c.applyPage(List.of(ev(12)), false);
        assertTrue(odd.fetch());
        assertFalse(odd.progress(), "the session backs off instead of spinning");
        assertEquals(List.of(), seqs(odd));
    }

    @Test
    void aFreshStartBeginsAtThePresetAnchorAndFetchesWhatWasNeverRoutedHere() {
        StreamCursor c = new StreamCursor(U, 100);
        c.presetAnchor(new Position(E, 7));
        Step start = c.startFresh();
        assertEquals(List.of(), seqs(start));
        assertFalse(start.fetch(), "the anchor was read before the welcome: nothing to fetch");
        assertEquals(new Position(E, 7), c.position(), "anchored at the head, history is not replayed");
        Step gap = c.offerLive(ev(9)); // 8 was sequenced after the anchor but routed elsewhere
        assertTrue(gap.fetch());
        assertEquals(List.of(8L, 9L), seqs(c.applyPage(List.of(ev(8)), false)));
    }

    @Test
    void aFreshStartKeepsLiveEventsHeldAtOrBelowTheAnchor() {
        StreamCursor c = new StreamCursor(U, 100);
        c.presetAnchor(new Position(E, 7));
        c.offerLive(ev(6));
        c.offerLive(ev(7));
        assertEquals(List.of(6L, 7L), seqs(c.startFresh()), "routed here after registration: delivered, not skipped");
        assertEquals(new Position(E, 7), c.position());
    }

    @Test
    void aStreamWithNoHistoryAtTheAnchorStartsAtSeqOne() {
        StreamCursor c = new StreamCursor(U, 100);
        c.presetAnchor(null);
        assertEquals(List.of(), seqs(c.startFresh()));
        assertNull(c.position());
        Step second = c.offerLive(ev(2)); // seq 1 never reached this node
        assertEquals(List.of(), seqs(second));
        assertTrue(second.fetch(), "fetched from the stream's first event");
        assertEquals(List.of(1L, 2L), seqs(c.applyPage(List.of(ev(1), ev(2)), false)));
        assertEquals(List.of(3L), seqs(c.offerLive(ev(3))));
    }

    @Test
    void withoutAnAnchorAFreshStartIsTheFirstLiveEvent() {
        StreamCursor c = new StreamCursor(U, 100);
        assertEquals(List.of(), seqs(c.startFresh()));
        assertEquals(List.of(5L), seqs(c.offerLive(ev(5))));
    }

    @Test
    void aRecheckFindsEventsNoLiveEventRevealed() {
        StreamCursor c = liveAt(10);
        Step recheck = c.recheck();
        assertTrue(recheck.fetch());
        assertTrue(c.syncing());
        assertFalse(c.recheck().fetch(), "one fetch at a time");
        assertEquals(List.of(11L, 12L), seqs(c.applyPage(List.of(ev(11), ev(12)), false)));
        assertFalse(c.syncing());
        Step nothing = c.recheck();
        assertTrue(nothing.fetch());
        Step empty = c.applyPage(List.of(), false);
        assertEquals(List.of(), seqs(empty));
        assertTrue(empty.progress());
        assertFalse(c.syncing());
    }

    @Test
    void aRecheckHasNothingToAskWithoutAnAnchor() {
        StreamCursor c = new StreamCursor(U, 100);
        c.startLive();
        assertFalse(c.recheck().fetch(), "a legacy live start has no position until its first event");
        StreamCursor fresh = new StreamCursor(U, 100);
        fresh.presetAnchor(null);
        fresh.startFresh();
        assertTrue(fresh.recheck().fetch(), "no history yet: ask from the stream's start");
    }

    private static SequencedEvent sequencedAt(long seq, long atMs) {
        return Events.durableAt(U, E, seq, atMs);
    }

    @Test
    void aRecheckLeavesEventsYoungerThanTheGraceToTheLivePath() {
        StreamCursor c = liveAt(10);
        assertTrue(c.recheck().fetch());
        Step page = c.applyRecheckPage(List.of(sequencedAt(11, 1_000), sequencedAt(12, 5_000)), false, 2_000);
        assertEquals(List.of(11L), seqs(page), "11 is older than the grace: a routing miss, sent now");
        assertFalse(page.fetch());
        assertTrue(c.youngLeft(), "12 may still come live: a follow-up recheck is due");
        assertTrue(c.awaitingLive());
        assertEquals(List.of(12L), seqs(c.offerLive(ev(12))), "the live copy of 12 is sent, not a duplicate");
        assertFalse(c.awaitingLive(), "12 came live: the follow-up recheck is not needed");
        assertEquals(1, c.offerLive(ev(12)).duplicates(), "a second copy is a duplicate");
    }

    @Test
    void aYoungEventThatNeverComesLiveIsFetchedAtTheNextGapOrRecheck() {
        StreamCursor c = liveAt(10);
        c.recheck();
        c.applyRecheckPage(List.of(sequencedAt(11, 5_000)), false, 2_000);
        assertTrue(c.youngLeft());
        Step gap = c.offerLive(ev(12));
        assertTrue(gap.fetch() && gap.gap(), "12 live without 11: the gap is fetched");
        assertFalse(c.recheck().fetch(), "one fetch at a time");
        Step filled = c.applyPage(List.of(ev(11), ev(12)), false);
        assertEquals(List.of(11L, 12L), seqs(filled));
        c.recheck();
        c.applyRecheckPage(List.of(), false, 2_000);
        assertFalse(c.youngLeft(), "an empty page leaves nothing to the live path");
    }
}
