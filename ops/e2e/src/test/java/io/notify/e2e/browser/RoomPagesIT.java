package io.notify.e2e.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.platform.Platform;
import io.notify.platform.Publishing;
import io.notify.platform.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rooms in real headless Chromium, through the demo page's room panel (notify.js {@code subscribe}):
 * two pages of two users join one room on two gateways — ann's on a gateway in a child JVM, bob's on
 * an in-process one — and see each other in "members online" (presence, across nodes; WebSocket only).
 * Events posted to the room (one through bob's page, the others by a service) reach both pages. Then
 * ann's gateway is killed with SIGKILL while events keep coming: ann's page moves to the third gateway
 * by itself and resumes the room from the position it stored, so both pages end with the room's seqs
 * 1..n, each once, in order. Once over WebSocket (the room resumed by {@code subscribe} with epoch and
 * seq) and once over SSE ({@code ?rooms=} and the composite Last-Event-ID). The pages are served by
 * different origins, so each keeps its own localStorage. Skipped where the Debian chromium package is
 * not installed.
 */
@ExtendWith(NotifyInfraExtension.class)
class RoomPagesIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @EachTransport
    @Timeout(180)
    void aPageWhoseGatewayIsKilledResumesTheRoomOnAnotherWithoutGapOrDuplicate(String transport, Infra infra, @TempDir Path dir)
            throws Exception {
        Chromium.assumeInstalled();
        String room = "demo:pages-" + transport;
        try (Platform stack = Platform.forTest(infra, dir).gateways("gw-a", "gw-b").browserOrigins()
                .gateway("notify.gateway.rooms.presence", "demo:*").start();
             Chromium chromium = Chromium.launch(dir.resolve("chromium"))) {
            ServiceProcess doomed = stack.startChildGateway("gw-doomed"); // allows the origins of gw-a's and gw-b's pages
            String a = Platform.http(stack.gateway("gw-a").port()).toString();
            String b = Platform.http(stack.gateway("gw-b").port()).toString();
            DevToolsPage ann = chromium.open(DemoPageIT.demoUrl(stack, a, List.of(doomed.baseUrl(), b),
                    stack.token("ann", List.of("demo:*")), transport));
            DevToolsPage bob = chromium.open(DemoPageIT.demoUrl(stack, b, List.of(a), stack.token("bob", List.of("demo:*")), transport));
            ann.waitFor("ann's page connects to gw-doomed", DemoPageIT.connectedTo("gw-doomed", transport), WAIT);
            bob.waitFor("bob's page connects to gw-a", DemoPageIT.connectedTo("gw-a", transport), WAIT);

            join(ann, room);
            join(bob, room);
            if (transport.equals("ws")) {
                awaitMembers(ann, room, "ann,bob");
                awaitMembers(bob, room, "ann,bob");
            }

            // posted through bob's page (ingest chose the id), then by a service
            bob.evaluate("document.getElementById('room-post-to').value = '" + room + "';"
                    + "document.querySelector('#room-post-form button[type=submit]').click()");
            bob.waitFor("ingest accepts the page's room post", "document.getElementById('room-post-result').textContent.startsWith('accepted: ')", WAIT);
            List<String> expected = new ArrayList<>(List.of(bob.text("document.getElementById('room-post-result').textContent.split(' ')[1]")));
            publish(stack, room, expected, "r-2", "r-3");
            awaitRoomFeed(ann, room, expected);
            awaitRoomFeed(bob, room, expected);

            // ann's gateway dies without a word; the room goes on
            doomed.kill();
            publish(stack, room, expected, "r-4", "r-5");
            ann.waitFor("ann's page notices gw-doomed is gone", "!(" + DemoPageIT.connectedTo("gw-doomed", transport) + ")", WAIT);
            publish(stack, room, expected, "r-6");
            ann.waitFor("ann's page reconnects to gw-b", DemoPageIT.connectedTo("gw-b", transport), WAIT);
            ann.waitFor("ann's page is in the room again", roomState(room, "subscribed"), WAIT);
            publish(stack, room, expected, "r-7", "r-8");

            awaitRoomFeed(ann, room, expected);
            awaitRoomFeed(bob, room, expected);
            assertEquals("gw-b", ann.text(roomFeed(room) + ".at(-1).dataset.node"), "the last events came through gw-b");
            assertEquals("8", ann.text("document.querySelector('#positions tr[data-stream=\"r:" + room + "\"] td:last-child').textContent"),
                    "ann's page stored the room's position");
            if (transport.equals("ws")) {
                awaitMembers(ann, room, "ann,bob"); // asked again on gw-b after the new subscribe
            }
            ann.evaluate("document.getElementById('rooms-panel').scrollIntoView()");
            ann.screenshot(Path.of("target", "room-pages-" + transport + ".png"));
        }
    }

    /** Joins {@code room} through the page's room panel and waits for the gateway's {@code subscribed}. */
    private static void join(DevToolsPage page, String room) {
        page.evaluate("document.getElementById('room-name').value = '" + room + "';"
                + "document.querySelector('#room-form button[type=submit]').click()");
        page.waitFor("the page joins " + room, roomState(room, "subscribed"), WAIT);
    }

    private static String roomState(String room, String state) {
        return "document.querySelector('#rooms li[data-room=\"" + room + "\"]').dataset.state === '" + state + "'";
    }

    /** Waits until the page's "members online" of {@code room} lists exactly {@code members} (comma-separated, in user-id order). */
    private static void awaitMembers(DevToolsPage page, String room, String members) {
        page.waitFor("members online in " + room + " are " + members,
                "document.querySelector('#rooms li[data-room=\"" + room + "\"] .members').dataset.members === '" + members + "'", WAIT);
    }

    /** Publishes durable events {@code ids} to {@code room} through ingest, as a service does, and expects them. */
    private static void publish(Platform stack, String room, List<String> expected, String... ids) {
        for (String id : ids) {
            stack.publishing().publishJson(Publishing.event("{\"rooms\":[\"" + room + "\"]}", id, "durable"));
            expected.add(id);
        }
    }

    /** The durable events of {@code room} in the page's feed. */
    private static String roomFeed(String room) {
        return "[...document.querySelectorAll('#feed li[data-kind=event][data-stream=\"r:" + room + "\"][data-seq]')]";
    }

    /** Waits until the page shows as many of the room's durable events as expected, then asserts them: ids in order, seqs 1..n. */
    private static void awaitRoomFeed(DevToolsPage page, String room, List<String> expected) {
        page.waitFor("the page shows " + expected.size() + " events of " + room, roomFeed(room) + ".length >= " + expected.size(), WAIT);
        List<String> ids = new ArrayList<>();
        List<Integer> seqs = new ArrayList<>();
        for (JsonNode e : page.evaluate(roomFeed(room) + ".map(li => [li.dataset.id, Number(li.dataset.seq)])")) {
            ids.add(e.get(0).asText());
            seqs.add(e.get(1).asInt());
        }
        String state = "\n" + page.describe();
        assertEquals(expected, ids, "the room's events, in order, each once" + state);
        assertEquals(IntStream.rangeClosed(1, expected.size()).boxed().toList(), seqs, "seqs 1..n: no gap, no duplicate" + state);
    }
}
