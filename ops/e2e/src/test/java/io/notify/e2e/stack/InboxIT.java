package io.notify.e2e.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.GatewayServer;
import io.notify.gateway.support.WsClient;
import io.notify.platform.FallbackTopic;
import io.notify.platform.Platform;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.RecalledFrame;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.StreamId;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inbox end to end (docs/inbox.md): a user's phone on one gateway and laptop on the other; the
 * history and the unread count read through either gateway; a mark on one device reaches both as
 * a state frame with the same count; a device's acks become its delivery receipts; an offline
 * fallback is written once for an event nobody acknowledged and not for one a device did.
 * What users and producers decide (docs/inbox.md, "Preferences", "Expiry"): a type the user muted for
 * live is a {@code collapsed} frame with reason {@code muted} on every device, live and on resume, and an
 * entry in the inbox, while a critical event of that type is sent; an event past its ttl is an expired
 * position on resume and leaves the inbox.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(240)
class InboxIT {

    static final Duration WAIT = Duration.ofSeconds(30);
    static Platform stack;
    static GatewayServer a;
    static GatewayServer b;

    @BeforeAll
    static void start(Infra infra, @TempDir Path dir) throws Exception {
        stack = Platform.forTest(infra, dir).fanout("notify.fanout.fallback.check-interval", "200ms").start();
        a = stack.startGateway("gw-a");
        b = stack.startGateway("gw-b");
    }

    @AfterAll
    static void stop() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    private static WsClient device(GatewayServer node, String user, String device) {
        WsClient c = WsClient.connect(URI.create(Platform.ws(node.port()) + "?device=" + device), stack.token(user));
        assertTrue(c.next(WAIT) instanceof WelcomeFrame);
        c.resumeLive();
        return c;
    }

    private static HttpResponse<String> call(GatewayServer node, String user, String method, String path, String body)
            throws Exception {
        return stack.asUser(node.port(), user, method, path, body);
    }

    private static JsonNode getJson(GatewayServer node, String user, String path) throws Exception {
        HttpResponse<String> r = call(node, user, "GET", path, null);
        assertEquals(200, r.statusCode(), path + " -> " + r.body());
        return NotifyJson.mapper().readTree(r.body());
    }

    /** The next state frame, skipping pings and events. */
    private static StateFrame nextState(WsClient c) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            ServerFrame f = c.next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (f instanceof StateFrame s) {
                return s;
            }
        }
    }

    @Test
    void aMarkOnOneDeviceReachesTheOtherOnAnotherNodeWithTheSameCount() throws Exception {
        String user = "inbox-sync";
        try (WsClient phone = device(a, user, "phone"); WsClient laptop = device(b, user, "laptop")) {
            for (int i = 1; i <= 5; i++) {
                stack.publish(user, "sync-" + i);
            }
            List<EventFrame> got = phone.events(5, WAIT);
            laptop.events(5, WAIT);
            Await.until("unread 5 through either gateway", WAIT, () -> unread(a, user) == 5 && unread(b, user) == 5);

            long marked = System.nanoTime();
            HttpResponse<String> read = call(a, user, "POST", "/v1/inbox/read", "{\"upTo\":3,\"device\":\"phone\"}");
            assertEquals(202, read.statusCode(), read.body());
            StateFrame onLaptop = nextState(laptop);
            long laptopMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - marked);
            StateFrame onPhone = nextState(phone);
            assertEquals(onPhone, onLaptop, "both devices see the same state");
            assertEquals(2, onLaptop.unread());
            assertEquals(ReceiptKind.READ, onLaptop.kind());
            assertEquals(3L, onLaptop.upTo());
            assertEquals("phone", onLaptop.device());
            assertEquals(5, onLaptop.head());
            assertEquals(2, unread(b, user), "the other gateway answers the new count");

            JsonNode page = getJson(b, user, "/v1/inbox?limit=10");
            List<String> states = new ArrayList<>();
            page.get("events").forEach(e -> states.add(e.get("event").get("seq").asLong() + ":" + e.get("state").asText()));
            assertEquals(List.of("5:unseen", "4:unseen", "3:read", "2:read", "1:read"), states);

            HttpResponse<String> archive = call(b, user, "POST", "/v1/inbox/archive", "{\"ids\":[\"" + got.get(4).id() + "\"]}");
            assertEquals(202, archive.statusCode(), archive.body());
            StateFrame archived = nextState(phone);
            assertEquals(1, archived.unread());
            assertEquals(List.of(5L), archived.seqs());
            assertEquals(archived, nextState(laptop));
            assertTrue(archived.version() > onLaptop.version());
            assertEquals(List.of(4L, 3L), seqs(getJson(a, user, "/v1/inbox?limit=2")), "archived events are left out");
            System.out.printf("InboxIT: a read mark on gw-a reached the laptop on gw-b as a state frame %d ms after the POST%n",
                    laptopMs);
        }
    }

    @Test
    void acksBecomeDeliveryReceiptsAndCancelTheFallback() throws Exception {
        String user = "inbox-acks";
        String offline = "inbox-offline";
        try (WsClient phone = device(a, user, "phone-1")) {
            stack.publisher().publish(EventEnvelope.durable("order.shipped", null, user).withId("fb-acked")
                    .withFallback(new Fallback("10s", "push"))).get(30, TimeUnit.SECONDS);
            stack.publisher().publish(EventEnvelope.durable("order.shipped", null, offline).withId("fb-missed")
                    .withFallback(new Fallback("10s", "push"))).get(30, TimeUnit.SECONDS);
            EventFrame e = phone.events(1, WAIT).get(0);
            phone.send("{\"t\":\"ack\",\"stream\":\"u:" + user + "\",\"seq\":" + e.seq() + "}");
            Await.until("phone-1's ack in the delivery status", WAIT, () -> {
                JsonNode status = query("/v1/streams/u:" + user + "/status?seq=" + e.seq());
                return status != null && status.path("deliveredTo").toString().contains("\"phone-1\"");
            });
            List<FallbackRecord> records = fallbacks(r -> r.stream().anyMatch(x -> x.event().id().equals("fb-missed")));
            assertEquals(List.of("fb-missed"), records.stream().map(r -> r.event().id()).toList(),
                    "the acknowledged event does not fall back; the other does, once");
            FallbackRecord r = records.get(0);
            assertEquals(offline, r.userId());
            assertEquals(FallbackRecord.Reason.NO_DEVICE, r.reason());
            assertTrue(r.at() >= r.dueAt(), "not before its time");
        }
    }

    @Test
    void aTypeMutedForLiveIsAPositionOnTheDeviceAndAnEntryInTheInbox() throws Exception {
        String user = "prefs-mia";
        HttpResponse<String> put = call(a, user, "PUT", "/v1/preferences", "{\"types\":{\"promo.sale\":{\"live\":false}}}");
        assertEquals(200, put.statusCode(), put.body());
        Await.until("the preferences applied", WAIT, () -> {
            try {
                return getJson(b, user, "/v1/preferences").path("types").has("promo.sale");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        WsClient phone = device(b, user, "phone");
        publish(user, "o-1", "order.shipped", false);
        publish(user, "p-1", "promo.sale", false);
        publish(user, "p-2", "promo.sale", true);
        publish(user, "o-2", "order.shipped", false);
        List<ServerFrame> live = positioned(phone, 4);
        assertEquals("o-1", ((EventFrame) live.get(0)).id());
        CollapsedFrame muted = assertInstanceOf(CollapsedFrame.class, live.get(1), "no content for a muted event: " + live);
        assertEquals(new CollapsedFrame(muted.stream(), muted.epoch(), 2, 2, CollapsedFrame.Reason.MUTED), muted);
        assertEquals("p-2", ((EventFrame) live.get(2)).id(), "critical: preferences do not apply");
        assertEquals(4L, ((EventFrame) live.get(3)).seq());
        phone.close();

        // a laptop resuming from after the first event gets the same, from the inbox
        WsClient laptop = resumedAt(a, user, muted.epoch(), 1);
        assertEquals(live.subList(1, 4), positioned(laptop, 3), "the same frames on resume after o-1 as live");
        laptop.close();

        assertEquals(List.of("o-2", "p-2", "p-1", "o-1"), ids(getJson(a, user, "/v1/inbox?limit=10")),
                "the inbox keeps what was muted for live");
        assertEquals(4, unread(b, user));
    }

    @Test
    void anEventPastItsTtlIsAnExpiredPositionOnResumeAndLeavesTheInbox() throws Exception {
        String user = "prefs-exp";
        WsClient phone = device(a, user, "phone");
        publish(user, "first", "order.shipped", false);
        publish(user, "keep", "order.shipped", false);
        stack.publisher().publish(EventEnvelope.durable("flash.sale", null, user).withId("sale").withExpiry(null, "2s"))
                .get(30, TimeUnit.SECONDS);
        List<ServerFrame> live = positioned(phone, 3);
        EventFrame sale = (EventFrame) live.get(2);
        assertEquals("sale", sale.id());
        assertTrue(sale.expiresAt() != null, "live, with when it expires: " + sale);
        phone.close();
        long expiresAt = sale.expiresAt().toInstant().toEpochMilli();
        Await.until("the sale expired", WAIT, () -> System.currentTimeMillis() > expiresAt);

        WsClient laptop = resumedAt(b, user, sale.epoch(), ((EventFrame) live.get(0)).seq()); // after "first"
        List<ServerFrame> replayed = positioned(laptop, 2);
        assertEquals("keep", ((EventFrame) replayed.get(0)).id());
        CollapsedFrame expired = assertInstanceOf(CollapsedFrame.class, replayed.get(1), "its position, not its content");
        assertEquals(new CollapsedFrame(expired.stream(), sale.epoch(), sale.seq(), sale.seq(), CollapsedFrame.Reason.EXPIRED), expired);
        laptop.close();

        assertEquals(List.of("keep", "first"), ids(getJson(b, user, "/v1/inbox?limit=10")), "an expired event is not listed");
    }

    @Test
    void aRecallReachesTheConnectedDeviceLeavesTheInboxAndLowersTheUnreadCount() throws Exception {
        String user = "recall-rae";
        WsClient phone = device(a, user, "phone");
        for (String[] e : new String[][] {{"o-1", "order-1"}, {"o-2", "order-2"}, {"o-3", "order-1"}, {"o-4", null}}) {
            stack.publishing().publishJson("{\"id\":\"" + e[0] + "\",\"type\":\"order.shipped\",\"to\":{\"users\":[\"" + user + "\"]}"
                    + (e[1] == null ? "" : ",\"cancellationKey\":\"" + e[1] + "\"") + "}");
        }
        List<ServerFrame> live = positioned(phone, 4);
        String epoch = ((EventFrame) live.get(0)).epoch();
        Await.until("4 unread", WAIT, () -> unread(b, user) == 4);

        stack.publishing().recall("o-4", user);
        assertEquals(new RecalledFrame(StreamId.forUser(user), epoch, 4, "o-4"), phone.expect(RecalledFrame.class, WAIT));
        assertEquals(3, nextState(phone).unread(), "the archive mark of the recall lowers the count on the device");
        stack.publishing().recallByKey("order-1", user);
        long first = phone.expect(RecalledFrame.class, WAIT).seq();
        assertEquals(List.of(1L, 3L), List.of(first, phone.expect(RecalledFrame.class, WAIT).seq()), "both events of the key");
        Await.until("1 unread", WAIT, () -> unread(b, user) == 1);
        phone.close();

        assertEquals(List.of("o-2"), ids(getJson(b, user, "/v1/inbox?limit=10")), "recalled events are not listed");
        WsClient laptop = resumedAt(b, user, epoch, 1); // after o-1: o-2, then o-3 and o-4 recalled
        List<ServerFrame> replayed = new ArrayList<>();
        long covered = 1;
        while (covered < 4) { // every seq, as the one standing event or a recalled position (adjacent ones may share a frame)
            ServerFrame f = positioned(laptop, 1).get(0);
            replayed.add(f);
            covered = f instanceof CollapsedFrame c ? c.to() : ((EventFrame) f).seq();
        }
        assertEquals(List.of("o-2"), replayed.stream().filter(f -> f instanceof EventFrame).map(f -> ((EventFrame) f).id()).toList(),
                "no recalled content on resume: " + replayed);
        List<CollapsedFrame> withheld = replayed.stream().filter(f -> f instanceof CollapsedFrame).map(f -> (CollapsedFrame) f).toList();
        assertEquals(2, withheld.stream().mapToLong(CollapsedFrame::count).sum(), "seqs 3 and 4 as positions: " + replayed);
        assertTrue(withheld.stream().allMatch(c -> c.reason() == CollapsedFrame.Reason.RECALLED), replayed.toString());
        laptop.close();
    }

    /** A device of {@code user} on {@code node} resuming its stream after {@code seq}. */
    private static WsClient resumedAt(GatewayServer node, String user, String epoch, long seq) {
        WsClient c = WsClient.connect(URI.create(Platform.ws(node.port()) + "?device=laptop"), stack.token(user));
        assertTrue(c.next(WAIT) instanceof WelcomeFrame);
        c.resume("u:" + user, epoch, seq);
        return c;
    }

    /** The next n durable event or collapsed frames, skipping pings, state frames and ephemeral events. */
    private static List<ServerFrame> positioned(WsClient c, int n) {
        List<ServerFrame> out = new ArrayList<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (out.size() < n) {
            ServerFrame f = c.next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if ((f instanceof EventFrame e && e.isDurable()) || f instanceof CollapsedFrame) {
                out.add(f);
            }
        }
        return out;
    }

    private static void publish(String user, String id, String type, boolean critical) throws Exception {
        stack.publisher().publish(EventEnvelope.durable(type, null, user).withId(id).withPolicy(null, critical, null))
                .get(30, TimeUnit.SECONDS);
    }

    private static List<String> ids(JsonNode page) {
        List<String> out = new ArrayList<>();
        page.get("events").forEach(e -> out.add(e.get("event").get("id").asText()));
        return out;
    }

    private static List<Long> seqs(JsonNode page) {
        List<Long> out = new ArrayList<>();
        page.get("events").forEach(e -> out.add(e.get("event").get("seq").asLong()));
        return out;
    }

    private static long unread(GatewayServer node, String user) {
        try {
            HttpResponse<String> r = call(node, user, "GET", "/v1/inbox/unread", null);
            return r.statusCode() == 200 ? NotifyJson.mapper().readTree(r.body()).get("unread").asLong() : -1;
        } catch (Exception e) {
            return -1;
        }
    }

    private static JsonNode query(String path) {
        try {
            HttpResponse<String> r = stack.queryApi().get(path, Duration.ofSeconds(5));
            return r.statusCode() == 200 ? NotifyJson.mapper().readTree(r.body()) : null;
        } catch (Exception e) {
            return null;
        }
    }

    /** notify.fallback until {@code done} holds, then 2 s more for a record that should not be there. */
    private static List<FallbackRecord> fallbacks(java.util.function.Predicate<List<FallbackRecord>> done) {
        return FallbackTopic.readUntil(stack.config().bootstrapServers(), stack.config().topics(), done,
                Duration.ofSeconds(2), Duration.ofSeconds(60));
    }
}
