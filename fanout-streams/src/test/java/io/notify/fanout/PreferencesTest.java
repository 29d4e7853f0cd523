package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.event.Channel;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.prefs.Channels;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.QuietHours;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Users' preferences, quiet hours and digests through the whole topology, on the driver's wall clock. */
class PreferencesTest {

    static final StreamId U = StreamId.forUser("42");
    static final StreamId OTHER = StreamId.forUser("43");
    @TempDir
    Path dir;
    FanoutFixture f;

    @AfterEach
    void close() {
        if (f != null) {
            f.close();
        }
    }

    private FanoutFixture open() {
        return open(FanoutFixture.START);
    }

    private FanoutFixture open(Instant start) {
        f = new FanoutFixture(dir, start);
        f.connect("42", "gw-1", "i1", "c1");
        f.connect("43", "gw-1", "i1", "c2");
        return f;
    }

    /** An event to users 42 and 43 with a push fallback after 30 s, and the given extra envelope fields. */
    private void send(String id, String type, String extra) {
        f.send(id, "{\"id\":\"" + id + "\",\"type\":\"" + type + "\",\"to\":{\"users\":[\"42\",\"43\"]},"
                + "\"fallback\":{\"after\":\"30s\",\"channel\":\"push\"}" + extra + "}");
    }

    private static Preferences types(String type, Channels channels) {
        return new Preferences(Map.of(type, channels), Map.of(), null);
    }


    @Test
    void aTypeMutedForLiveIsKeptInTheInboxAndMarkedForTheGatewayToSkip() {
        open().preferences(U, types("promo.sale", new Channels(false, null, null)));
        send("p-1", "promo.sale", "");
        SequencedEvent kept = f.logOf(U).get(0);
        assertEquals(List.of(Channel.LIVE), kept.muted(), "in the stream log and the inbox, muted for live");
        assertEquals(kept, f.inbox().get(new io.notify.fanout.inbox.InboxKey(U, kept.seq())));
        DeliveryMessage toGateway = f.deliveredOf("gw-1", U).get(0);
        assertEquals(List.of(Channel.LIVE), ((SequencedEvent) toGateway.event()).muted(),
                "routed with its mark: the gateway moves the device's position past it without sending it");
        assertEquals(List.of(), f.logOf(OTHER).get(0).muted(), "another user's preferences are theirs");
        assertEquals(1, f.counted("notify.fanout.muted", "channel", "live"));
    }

    @Test
    void theInboxChannelOffSendsItLiveOnlyAndBothOffSendNothing() {
        open().preferences(U, new Preferences(Map.of("chat.nudge", new Channels(null, false, null),
                "promo.sale", new Channels(false, false, null)), Map.of(), null));
        send("n-1", "chat.nudge", "");
        send("p-1", "promo.sale", "");
        assertEquals(List.of(), f.logOf(U), "neither is kept for 42");
        assertNull(f.heads().get(U), "no position was taken");
        List<DeliveryMessage> live = f.deliveredOf("gw-1", U);
        assertEquals(1, live.size(), "only the nudge is sent: " + live);
        assertTrue(live.get(0).event() instanceof LiveEvent l && l.id().equals("n-1"), "as an ephemeral event: " + live);
        assertEquals(2, f.logOf(OTHER).size());
        f.advance(Duration.ofMinutes(1));
        assertEquals(List.of(), f.fallbacksOf(U), "nothing kept, nothing to fall back for");
        assertEquals(2, f.fallbacksOf(OTHER).size());
        assertEquals(1, f.counted("notify.fanout.muted", "channel", "inbox"));
        assertEquals(1, f.counted("notify.fanout.muted", "channel", "all"));
    }

    @Test
    void pushOffSkipsTheFallbackByTypeOrCategoryAndTheTypeDecidesOverItsCategory() {
        open().preferences(U, new Preferences(Map.of("promo.vip", new Channels(null, null, true)),
                Map.of("marketing", new Channels(null, null, false)), null));
        send("m-1", "promo.sale", ",\"category\":\"marketing\"");
        send("m-2", "promo.vip", ",\"category\":\"marketing\"");
        send("o-1", "order.shipped", "");
        f.advance(Duration.ofSeconds(31));
        assertEquals(List.of("m-2", "o-1"), f.fallbacksOf(U).stream().map(r -> r.event().id()).toList());
        assertEquals(List.of(Channel.PUSH), f.logOf(U).get(0).muted());
        assertEquals("marketing", f.logOf(U).get(0).category());
        assertEquals(3, f.fallbacksOf(OTHER).size());
        assertEquals(1, f.counted("notify.fanout.fallback", "outcome", "muted"));
    }

    @Test
    void aCriticalEventIgnoresPreferencesAndQuietHours() {
        // 2026-01-01T00:00Z is 01:00 in Berlin: inside quiet hours 22:00-07:00
        open().preferences(U, new Preferences(Map.of("security.alert", new Channels(false, false, false)), Map.of(),
                new QuietHours("22:00", "07:00", "Europe/Berlin")));
        send("s-1", "security.alert", ",\"critical\":true");
        assertEquals(1, f.logOf(U).size());
        assertEquals(List.of(), f.logOf(U).get(0).muted());
        assertTrue(f.logOf(U).get(0).critical());
        f.advance(Duration.ofSeconds(31));
        assertEquals(List.of("s-1"), f.fallbacksOf(U).stream().map(r -> r.event().id()).toList(), "not held by quiet hours");
    }

    @Test
    void aChangeAppliesToEventsSequencedAfterItAndATombstoneResets() {
        open();
        send("a-1", "promo.sale", "");
        f.preferences(U, types("promo.sale", new Channels(false, null, null)));
        send("a-2", "promo.sale", "");
        f.preferences(U, null);
        send("a-3", "promo.sale", "");
        assertEquals(List.of(List.of(), List.of(Channel.LIVE), List.of()), f.logOf(U).stream().map(SequencedEvent::muted).toList());
        assertEquals(1, f.counted("notify.fanout.preferences", "outcome", "applied"));
        assertEquals(1, f.counted("notify.fanout.preferences", "outcome", "reset"));
    }

    @Test
    void quietHoursHoldAFallbackToTheirEndInLocalTimeAcrossTheSpringForwardChange() {
        // Berlin moves from CET (+01:00) to CEST (+02:00) at 2026-03-29T01:00Z. Quiet 22:00-07:00 ends at 07:00 CEST = 05:00Z;
        // a fixed offset of +01:00 would end them at 06:00Z.
        open(Instant.parse("2026-03-28T21:00:00Z")).preferences(U,
                new Preferences(Map.of(), Map.of(), new QuietHours("22:00", "07:00", "Europe/Berlin")));
        send("late-1", "order.shipped", "");
        f.advance(Duration.ofSeconds(31)); // due at 22:00:30 local
        assertEquals(List.of(), f.fallbacksOf(U), "held");
        assertEquals(1, f.fallbacksOf(OTHER).size(), "43 has no quiet hours");
        assertEquals(1, f.counted("notify.fanout.fallback", "outcome", "held_quiet"));
        f.advance(Duration.between(f.clock.instant(), Instant.parse("2026-03-29T04:59:00Z")));
        assertEquals(List.of(), f.fallbacksOf(U), "still quiet at 06:59 CEST");
        f.advance(Duration.ofMinutes(2));
        List<FallbackRecord> out = f.fallbacksOf(U);
        assertEquals(1, out.size(), "released at 07:00 CEST");
        assertEquals(Instant.parse("2026-03-29T05:00:00Z").toEpochMilli(), out.get(0).dueAt());
    }

    @Test
    void tenEventsOfOneDigestKeyBecomeOneFallbackWithTheirCountAndTheFirstAndLast() {
        open();
        String digest = ",\"digest\":{\"key\":\"comments:post-9\",\"window\":\"2m\"}";
        for (int i = 1; i <= 10; i++) {
            send("c-" + i, "comment.added", digest);
            f.advance(Duration.ofSeconds(5));
        }
        String epoch = f.heads().get(U).epoch();
        f.receipt(Receipt.ack(U, epoch, 1, "phone-1", f.clock.millis())); // the first was seen: 9 remain
        f.advance(Duration.ofSeconds(75)); // past 2 min after the first
        List<FallbackRecord> out = f.fallbacksOf(U);
        assertEquals(1, out.size(), "one record for the digest: " + out);
        FallbackRecord r = out.get(0);
        assertEquals("comments:post-9", r.digest().key());
        assertEquals(9, r.digest().count());
        assertEquals("c-2", r.digest().first().id(), "the first of those still standing: c-1 was acknowledged");
        assertEquals("c-10", r.event().id());
        List<FallbackRecord> other = f.fallbacksOf(OTHER);
        assertEquals(1, other.size());
        assertEquals(10, other.get(0).digest().count());
        assertEquals(18, f.counted("notify.fanout.fallback", "outcome", "folded"));
        send("c-11", "comment.added", digest);
        f.advance(Duration.ofMinutes(3));
        List<FallbackRecord> all = f.fallbacksOf(U);
        assertEquals(2, all.size());
        FallbackRecord next = all.get(1);
        assertEquals("c-11", next.digest().first().id(), "after the window a new digest opens");
        assertEquals(1, next.digest().count());
    }

    @Test
    void aDigestWithSummaryAlsoPutsOneEntryForItsEventsInTheInbox() {
        open();
        String digest = ",\"digest\":{\"key\":\"comments:post-9\",\"window\":\"1m\",\"summary\":true}";
        for (int i = 1; i <= 3; i++) {
            send("c-" + i, "comment.added", digest);
        }
        f.advance(Duration.ofSeconds(40));
        f.connect("42", "gw-1", "i1", "c1"); // the connection's lease renewed, as a live gateway does
        f.advance(Duration.ofSeconds(21));
        assertEquals(1, f.fallbacksOf(U).size());
        List<SequencedEvent> logU = f.logOf(U);
        assertEquals(4, logU.size(), "the three events, then the summary: " + logU);
        SequencedEvent summary = logU.get(3);
        assertEquals(io.notify.protocol.event.Digest.SUMMARY_TYPE, summary.type());
        assertEquals(4, summary.seq(), "the stream's next seq");
        assertEquals(summary, f.inbox().get(new io.notify.fanout.inbox.InboxKey(U, 4)), "held in the inbox");
        assertEquals(3, summary.data().get("count").asLong());
        assertEquals("comment.added", summary.data().get("type").asText());
        assertEquals("c-1", summary.data().path("first").path("id").asText());
        assertEquals("c-3", summary.data().path("last").path("id").asText());
        assertEquals(summary, f.deliveredOf("gw-1", U).get(3).event(), "and sent to the user's devices like any event");
        assertEquals(4, f.heads().get(U).lastSeq());
        send("c-4", "comment.added", "");
        assertEquals(5, f.logOf(U).get(4).seq(), "the stream goes on after it");
    }

    @Test
    void aDigestHeldByQuietHoursKeepsFoldingUntilItFires() {
        open(Instant.parse("2026-01-01T21:00:00Z")).preferences(U,   // 22:00 in Berlin
                new Preferences(Map.of(), Map.of(), new QuietHours("22:00", "07:00", "Europe/Berlin")));
        String digest = ",\"digest\":{\"key\":\"likes\",\"window\":\"1m\"}";
        send("l-1", "like.added", digest);
        f.advance(Duration.ofMinutes(2));
        assertEquals(List.of(), f.fallbacksOf(U), "held");
        send("l-2", "like.added", digest);
        send("l-3", "like.added", digest);
        f.advance(Duration.ofHours(9));
        List<FallbackRecord> out = f.fallbacksOf(U);
        assertEquals(1, out.size(), "one record at 07:00: " + out);
        assertEquals(3, out.get(0).digest().count());
        assertEquals("l-3", out.get(0).event().id());
    }

    @Test
    void aCriticalEventIsNeverFoldedNorHeldAndLeavesTheDigestItsQuietHours() {
        open(Instant.parse("2026-01-01T21:00:00Z")).preferences(U,   // 22:00 in Berlin
                new Preferences(Map.of(), Map.of(), new QuietHours("22:00", "07:00", "Europe/Berlin")));
        String digest = ",\"digest\":{\"key\":\"alerts\",\"window\":\"1m\"}";
        send("crit-1", "security.alert", digest + ",\"critical\":true");
        send("n-1", "security.alert", digest);
        send("crit-2", "security.alert", digest + ",\"critical\":true");
        f.advance(Duration.ofMinutes(2));
        assertEquals(List.of("crit-1", "crit-2"), f.fallbacksOf(U).stream().map(r -> r.event().id()).toList(),
                "each critical event on its own, at its due time, in quiet hours");
        assertTrue(f.fallbacksOf(U).stream().allMatch(r -> r.digest() == null));
        f.advance(Duration.ofHours(9));
        List<FallbackRecord> all = f.fallbacksOf(U);
        assertEquals(3, all.size(), "the ordinary one held to 07:00: " + all);
        assertEquals("n-1", all.get(2).event().id());
        assertEquals(1, all.get(2).digest().count());
    }

    @Test
    void aDigestShowsTheFirstAndLastOfTheEventsStillStanding() {
        open();
        String digest = ",\"digest\":{\"key\":\"c\",\"window\":\"1m\"}";
        send("c-1", "comment.added", digest);
        send("c-2", "comment.added", digest);
        send("c-3", "comment.added", digest);
        send("c-4", "comment.added", digest + ",\"ttl\":\"20s\"");
        String epoch = f.heads().get(U).epoch();
        f.receipt(Receipt.markIds(U, io.notify.protocol.inbox.ReceiptKind.READ, epoch, List.of("c-1", "c-3"), null, f.clock.millis()));
        f.advance(Duration.ofSeconds(61));
        FallbackRecord r = f.fallbacksOf(U).get(0);
        assertEquals(1, r.digest().count(), "c-1 and c-3 read, c-4 expired");
        assertEquals("c-2", r.event().id(), "the one standing, not a read or an expired one");
        assertEquals("c-2", r.digest().first().id());
        assertEquals(3, f.fallbacksOf(OTHER).get(0).digest().count(), "another user read nothing; c-4 expired for them too");
        assertEquals("c-3", f.fallbacksOf(OTHER).get(0).event().id(), "their last standing event, not the expired c-4");
    }

    @Test
    void quietHoursHoldWhatFellDueInsideThemNotWhatIsDecidedInside() {
        open(Instant.parse("2026-01-01T20:59:20Z")).preferences(U, // 21:59:20 in Berlin: the fallback falls due at 21:59:50
                new Preferences(Map.of(), Map.of(), new QuietHours("22:00", "07:00", "Europe/Berlin")));
        send("late", "order.shipped", "");
        f.advance(Duration.ofSeconds(45)); // decided at 22:00:05, after it fell due
        assertEquals(List.of("late"), f.fallbacksOf(U).stream().map(r -> r.event().id()).toList(), "due before the window: not held");
    }

    @Test
    void quietHoursWithLiveOffMuteLiveDeliveryInsideTheWindowOnly() {
        // 2026-01-01T21:30Z is 22:30 in Berlin: inside 22:00-07:00
        open(Instant.parse("2026-01-01T21:30:00Z")).preferences(U,
                new Preferences(Map.of(), Map.of(), new QuietHours("22:00", "07:00", "Europe/Berlin", false)));
        send("night", "order.shipped", "");
        send("alarm", "security.alert", ",\"critical\":true");
        f.advance(Duration.ofHours(9)); // 07:30 in Berlin
        send("morning", "order.shipped", "");
        assertEquals(List.of(List.of(Channel.LIVE), List.of(), List.of()), f.logOf(U).stream().map(SequencedEvent::muted).toList(),
                "muted for live inside the window, not critical ones, not after it");
        assertEquals(List.of(), f.logOf(OTHER).get(0).muted(), "another user's quiet hours are theirs");
    }
}
