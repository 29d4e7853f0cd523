package io.notify.gateway.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.notify.devstack.Await;
import io.notify.gateway.auth.AuthResult;
import io.notify.gateway.resume.FetchResult;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.FakeTransport;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.gateway.transport.SseStart;
import io.notify.protocol.event.Channel;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.ResumePoint;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.frame.SseCursor;
import io.notify.protocol.frame.SubscribedFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Collapsed catch-up on a session (docs/protocol.md, "Collapsed catch-up"): a replayed page's superseded
 * events reach the client as {@code collapsed} frames in their seqs' place, the position stays gapless,
 * live events are merged and deduplicated across the collapsed seqs, and SSE ids name the position.
 */
class SessionCollapseTest extends SessionFixture {

    private static final Map<String, String> ON = Map.of("notify.gateway.collapse.types", "order.status");

    /** 101..106: 101 another type, 102, 104, 105, 106 order 17's status, 103 order 18's. */
    private static List<SequencedEvent> backlog(StreamId stream, String epoch, long base) {
        return List.of(Events.keyed(stream, epoch, base + 1, "order.created", null),
                Events.keyed(stream, epoch, base + 2, "order.status", "order-17"),
                Events.keyed(stream, epoch, base + 3, "order.status", "order-18"),
                Events.keyed(stream, epoch, base + 4, "order.status", "order-17"),
                Events.keyed(stream, epoch, base + 5, "order.status", "order-17"),
                Events.keyed(stream, epoch, base + 6, "order.status", "order-17"));
    }

    /** What the client sees of the stream: "e<seq>" per event, "c<from>..<to>" per collapsed frame. */
    private static List<String> shown(FakeTransport t) {
        List<String> out = new ArrayList<>();
        for (ServerFrame f : t.frames()) {
            if (f instanceof EventFrame e) {
                out.add("e" + e.seq());
            } else if (f instanceof CollapsedFrame c) {
                out.add("c" + c.from() + ".." + c.to());
            }
        }
        return out;
    }

    @Test
    void aResumeGetsTheLatestOfEachKeyAndCollapsedFramesForTheRest_liveEventsMergedAcrossThem() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = resumedAt100(t, ON);
        live(s, Events.durable(U, E, 104)); // while the replay is in flight: held, then a duplicate of a collapsed seq
        live(s, Events.durable(U, E, 107));
        source.answers.get(0).complete(new FetchResult.Page(U, backlog(U, E, 100), false));
        assertEquals(List.of("e101", "c102..102", "e103", "c104..105", "e106", "e107"), shown(t));
        assertEquals(new CollapsedFrame(U, E, 104, 105), t.frames().stream().filter(CollapsedFrame.class::isInstance).toList().get(1));
        assertEquals(3.0, metrics.count("notify.gateway.collapsed.events"));
        assertEquals(1.0, metrics.count("notify.gateway.duplicates.dropped"), "the held copy of 104");

        live(s, Events.durable(U, E, 105)); // a late live copy of a collapsed seq
        live(s, Events.durable(U, E, 108));
        assertEquals(List.of("e101", "c102..102", "e103", "c104..105", "e106", "e107", "e108"), shown(t));
        assertGapless(t, 100);
        assertEquals(2.0, metrics.count("notify.gateway.duplicates.dropped"));
        assertEquals(3.0, metrics.count("notify.gateway.events.replayed"), "101, 103 and 106: collapsed events are not replayed ones");
        assertNull(t.closedWith());
    }

    @Test
    void offByDefault_everyEventOfTheBacklogIsSent() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        resumedAt100(t, Map.of());
        source.answers.get(0).complete(new FetchResult.Page(U, backlog(U, E, 100), false));
        assertEquals(List.of("e101", "e102", "e103", "e104", "e105", "e106"), shown(t));
        assertEquals(0.0, metrics.count("notify.gateway.collapsed.events"));
    }

    @Test
    void aGapFillCollapsesItsPageToo_liveEventsThemselvesNever() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = freshAtSeven(t, ON);
        live(s, Events.keyed(U, E, 8, "order.status", "order-17"));
        live(s, Events.keyed(U, E, 9, "order.status", "order-17")); // in order: sent as it is, never collapsed
        live(s, Events.keyed(U, E, 13, "order.status", "order-17")); // 10..12 never routed here
        assertEquals(new Position(E, 9), source.requests.get(0).after());
        source.answers.get(0).complete(new FetchResult.Page(U, List.of(Events.keyed(U, E, 10, "order.status", "order-17"),
                Events.keyed(U, E, 11, "order.status", "order-17"), Events.keyed(U, E, 12, "order.note", null),
                Events.keyed(U, E, 13, "order.status", "order-17")), false));
        assertEquals(List.of("e8", "e9", "c10..11", "e12", "e13"), shown(t));
        assertGapless(t, 7);
    }

    @Test
    void overSseACollapsedFrameCarriesThePositionOfItsLastSeqAsId() {
        FakeTransport t = new FakeTransport("sse", 100, 1 << 20);
        open(t, ON, Instant.now().plusSeconds(3600), new Position(E, 100));
        source.answers.get(0).complete(new FetchResult.Page(U, backlog(U, E, 100), false));
        List<String> ids = t.written().stream().filter(f -> f.kind() == OutboundFrame.Kind.DURABLE).map(OutboundFrame::sseId).toList();
        assertEquals(List.of("ep1:101", "ep1:102", "ep1:103", "ep1:105", "ep1:106"), ids);
        assertEquals(List.of("e101", "c102..102", "e103", "c104..105", "e106"), shown(t));
    }

    @Test
    void overSseWithRoomsACollapsedRoomRunCarriesTheCompositeCursorAtItsEnd() {
        StreamId room = StreamId.parse("r:lobby");
        FakeTransport t = new FakeTransport("sse", 100, 1 << 20)
                .startingAt(new SseStart(List.of(ResumePoint.of(U, new Position(E, 6)), ResumePoint.of(room, new Position("ep2", 1))), List.of()));
        limiter.tryAcquire("42");
        Session s = new Session("c-1", new AuthResult.Authenticated("42", Instant.now().plusSeconds(3600)), null, t,
                context(Map.of("notify.gateway.collapse.types", "*.progress", "notify.gateway.rooms.public", "lobby")));
        s.open();
        Await.until("the own replay and the room's head read", Duration.ofSeconds(5), () -> source.requests.size() == 2);
        source.answers.get(0).complete(new FetchResult.Page(U, List.of(), false)); // nothing missed of the own stream
        source.answers.get(1).complete(new FetchResult.Page(room, List.of(), false, new Position("ep2", 4)));
        Await.until("the room's replay", Duration.ofSeconds(5), () -> source.requests.size() == 3);
        assertEquals(new Position("ep2", 1), source.requests.get(2).after());
        source.answers.get(2).complete(new FetchResult.Page(room, List.of(Events.keyed(room, "ep2", 2, "doc.progress", "doc-1"),
                Events.keyed(room, "ep2", 3, "doc.progress", "doc-1"), Events.keyed(room, "ep2", 4, "doc.progress", "doc-1")), false));

        List<ServerFrame> frames = t.frames();
        assertInstanceOf(SubscribedFrame.class, frames.get(1));
        assertEquals(new CollapsedFrame(room, "ep2", 2, 3), frames.get(2));
        assertEquals(4L, assertInstanceOf(EventFrame.class, frames.get(3)).seq());
        List<OutboundFrame> written = t.written();
        assertEquals(cursor(new Position(E, 6), room, new Position("ep2", 3)), written.get(written.size() - 2).sseId(),
                "the collapsed frame's id resumes every stream, the room after seq 3");
        assertEquals(cursor(new Position(E, 6), room, new Position("ep2", 4)), written.get(written.size() - 1).sseId());
    }

    private static String cursor(Position own, StreamId room, Position roomAt) {
        StringBuilder out = new StringBuilder();
        SseCursor.append(out, U, own);
        SseCursor.append(out, room, roomAt);
        return out.toString();
    }

    /** {@code e} as the user's preferences muted it for live delivery. */
    private static SequencedEvent mutedForLive(SequencedEvent e) {
        return new SequencedEvent(e.stream(), e.epoch(), e.seq(), e.id(), e.type(), e.data(), e.occurredAt(), e.source(), e.ingestedAt(),
                e.sequencedAt(), e.fallback(), e.collapseKey(), e.category(), e.critical(), e.digest(), List.of(Channel.LIVE));
    }

    @Test
    void eventsMutedForLiveAreCollapsedFramesWithReasonMutedOnEveryPath_collapsingOffOrOn() {
        for (Map<String, String> config : List.of(Map.<String, String>of(), ON)) {
            FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
            Session s = resumedAt100(t, config);
            source.answers.get(0).complete(new FetchResult.Page(U, List.of(Events.durable(U, E, 101),
                    mutedForLive(Events.durable(U, E, 102)), Events.durable(U, E, 103)), false));
            live(s, mutedForLive(Events.durable(U, E, 104))); // in order: live
            live(s, Events.durable(U, E, 105));
            assertEquals(List.of("e101", "c102..102", "e103", "c104..104", "e105"), shown(t), "with " + config);
            assertGapless(t, 100);
            List<CollapsedFrame> muted = t.frames().stream().filter(CollapsedFrame.class::isInstance).map(CollapsedFrame.class::cast).toList();
            assertEquals(List.of(new CollapsedFrame(U, E, 102, 102, CollapsedFrame.Reason.MUTED),
                    new CollapsedFrame(U, E, 104, 104, CollapsedFrame.Reason.MUTED)), muted, "no content, only the position");
            assertNull(t.closedWith());
            source.requests.clear();
            source.answers.clear();
        }
    }

    /** {@code e} with an expiry at {@code atMs}. */
    private static SequencedEvent expiring(SequencedEvent e, long atMs) {
        return new SequencedEvent(e.stream(), e.epoch(), e.seq(), e.id(), e.type(), e.data(), e.occurredAt(), e.source(), e.ingestedAt(),
                e.sequencedAt(), e.fallback(), e.collapseKey(), e.category(), e.critical(), e.digest(), e.muted(), atMs);
    }

    @Test
    void anEventThatExpiredBeforeItIsSentIsACollapsedFrameWithReasonExpired_oneStillValidIsSentWithItsExpiry() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = resumedAt100(t, Map.of());
        long now = System.currentTimeMillis();
        source.answers.get(0).complete(new FetchResult.Page(U, List.of(expiring(Events.durable(U, E, 101), now - 1),
                expiring(Events.durable(U, E, 102), now + 3_600_000)), false));
        live(s, expiring(Events.durable(U, E, 103), now - 1));
        assertEquals(List.of("c101..101", "e102", "c103..103"), shown(t));
        assertGapless(t, 100);
        assertEquals(List.of(CollapsedFrame.Reason.EXPIRED, CollapsedFrame.Reason.EXPIRED), t.frames().stream()
                .filter(CollapsedFrame.class::isInstance).map(f -> ((CollapsedFrame) f).reason()).toList());
        EventFrame valid = (EventFrame) t.frames().stream().filter(EventFrame.class::isInstance).findFirst().orElseThrow();
        assertEquals(now + 3_600_000, valid.expiresAt().toInstant().toEpochMilli(), "the client knows when to stop showing it");
    }

    @Test
    void overSseAMutedEventMovesLastEventIdPastIt() {
        FakeTransport t = new FakeTransport("sse", 100, 1 << 20);
        Session s = open(t, Map.of(), Instant.now().plusSeconds(3600), new Position(E, 100));
        source.answers.get(0).complete(new FetchResult.Page(U, List.of(Events.durable(U, E, 101),
                mutedForLive(Events.durable(U, E, 102))), false));
        live(s, mutedForLive(Events.durable(U, E, 103)));
        List<String> ids = t.written().stream().filter(f -> f.kind() == OutboundFrame.Kind.DURABLE).map(OutboundFrame::sseId).toList();
        assertEquals(List.of("ep1:101", "ep1:102", "ep1:103"), ids);
        assertEquals(List.of("e101", "c102..102", "c103..103"), shown(t));
    }
}
