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
import io.notify.platform.Platform;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.frame.WelcomeFrame;
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
 * Users' preferences on the real stack (docs/inbox.md, "Preferences"): a user turns live delivery off
 * for a type through the gateway; the device connected on the other gateway gets those events as
 * {@code collapsed} frames with reason {@code muted} in their seqs' place (gapless) and every other event
 * as usual, live and on resume; the inbox lists them all; a critical event of the muted type is sent.
 * An event with a ttl goes live with its expiresAt; once past it, a resume gets its position with
 * reason {@code expired} and the inbox no longer lists it (docs/protocol.md, "Expiry").
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(180)
class PreferencesIT {

    static final Duration WAIT = Duration.ofSeconds(30);
    static Platform stack;
    static GatewayServer a;
    static GatewayServer b;

    @BeforeAll
    static void start(Infra infra, @TempDir Path dir) throws Exception {
        stack = Platform.forTest(infra, dir).start();
        a = stack.startGateway("gw-a");
        b = stack.startGateway("gw-b");
    }

    @AfterAll
    static void stop() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    private static HttpResponse<String> call(GatewayServer node, String user, String method, String path, String body)
            throws Exception {
        return stack.asUser(node.port(), user, method, path, body);
    }

    /** The next n event or collapsed frames, skipping pings and state frames. */
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

    @Test
    void aTypeMutedForLiveIsAPositionOnTheDeviceAndAnEntryInTheInbox() throws Exception {
        String user = "prefs-mia";
        HttpResponse<String> put = call(a, user, "PUT", "/v1/preferences", "{\"types\":{\"promo.sale\":{\"live\":false}}}");
        assertEquals(200, put.statusCode(), put.body());
        Await.until("the preferences applied", WAIT, () -> {
            try {
                HttpResponse<String> got = call(b, user, "GET", "/v1/preferences", null);
                return got.statusCode() == 200 && got.body().contains("promo.sale");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        WsClient phone = WsClient.connect(URI.create(Platform.ws(b.port()) + "?device=phone"), stack.token(user));
        assertInstanceOf(WelcomeFrame.class, phone.next(WAIT));
        phone.resumeLive();
        publish(user, "o-1", "order.shipped", false);
        publish(user, "p-1", "promo.sale", false);
        publish(user, "p-2", "promo.sale", true);
        publish(user, "o-2", "order.shipped", false);
        List<ServerFrame> live = positioned(phone, 4);
        assertEquals("o-1", ((EventFrame) live.get(0)).id());
        CollapsedFrame muted = assertInstanceOf(CollapsedFrame.class, live.get(1), "no content for a muted event: " + live);
        assertEquals(CollapsedFrame.Reason.MUTED, muted.reason());
        assertEquals(2, muted.from());
        assertEquals(2, muted.to());
        assertEquals("p-2", ((EventFrame) live.get(2)).id(), "critical: preferences do not apply");
        assertEquals(4L, ((EventFrame) live.get(3)).seq());
        String epoch = muted.epoch();
        phone.close();

        // a laptop resuming from after the first event gets the same, from the inbox
        WsClient laptop = WsClient.connect(URI.create(Platform.ws(a.port()) + "?device=laptop"), stack.token(user));
        assertInstanceOf(WelcomeFrame.class, laptop.next(WAIT));
        laptop.resume("u:" + user, epoch, 1);
        List<ServerFrame> replayed = positioned(laptop, 3);
        assertEquals(live.subList(1, 4), replayed, "the same frames on resume after o-1 as live");
        laptop.close();

        HttpResponse<String> inbox = call(a, user, "GET", "/v1/inbox?limit=10", null);
        assertEquals(200, inbox.statusCode(), inbox.body());
        List<String> ids = new ArrayList<>();
        NotifyJson.mapper().readTree(inbox.body()).get("events").forEach(e -> ids.add(e.get("event").get("id").asText()));
        assertEquals(List.of("o-2", "p-2", "p-1", "o-1"), ids, "the inbox keeps what was muted for live");
        JsonNode unread = NotifyJson.mapper().readTree(call(b, user, "GET", "/v1/inbox/unread", null).body());
        assertTrue(unread.get("unread").asLong() == 4, unread.toString());
    }

    @Test
    void anEventPastItsTtlIsAnExpiredPositionOnResumeAndLeavesTheInbox() throws Exception {
        String user = "prefs-exp";
        WsClient phone = WsClient.connect(URI.create(Platform.ws(a.port()) + "?device=phone"), stack.token(user));
        assertInstanceOf(WelcomeFrame.class, phone.next(WAIT));
        phone.resumeLive();
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

        WsClient laptop = WsClient.connect(URI.create(Platform.ws(b.port()) + "?device=laptop"), stack.token(user));
        assertInstanceOf(WelcomeFrame.class, laptop.next(WAIT));
        laptop.resume("u:" + user, sale.epoch(), ((EventFrame) live.get(0)).seq()); // after "first"
        List<ServerFrame> replayed = positioned(laptop, 2);
        assertEquals("keep", ((EventFrame) replayed.get(0)).id());
        CollapsedFrame expired = assertInstanceOf(CollapsedFrame.class, replayed.get(1), "its position, not its content");
        assertEquals(CollapsedFrame.Reason.EXPIRED, expired.reason());
        assertEquals(sale.seq(), expired.to());
        laptop.close();

        HttpResponse<String> inbox = call(b, user, "GET", "/v1/inbox?limit=10", null);
        List<String> ids = new ArrayList<>();
        NotifyJson.mapper().readTree(inbox.body()).get("events").forEach(e -> ids.add(e.get("event").get("id").asText()));
        assertEquals(List.of("keep", "first"), ids, "an expired event is not listed");
    }
}
