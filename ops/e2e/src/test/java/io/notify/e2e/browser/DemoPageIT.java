package io.notify.e2e.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.GatewayServer;
import io.notify.platform.DevKeys;
import io.notify.platform.Platform;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo page in real headless Chromium against the whole platform: the page connects to gateway
 * A; an event published through the page's own form (ingest with CORS) and one published by a
 * service appear; A stops abruptly; the page moves to gateway B by itself and shows the events
 * published meanwhile and after, in order, each once. Then A comes back, the page reloads from it and
 * resumes from the position it persisted in localStorage. The page connects with connect tickets
 * (from gw-b across origins). Skipped where the Debian chromium package
 * is not installed.
 */
@ExtendWith(NotifyInfraExtension.class)
class DemoPageIT {

    private static final String USER = "42";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String FEED = "[...document.querySelectorAll('#feed li[data-kind=event]')]";

    @EachTransport
    @Timeout(150)
    void pageFollowsItsUserAcrossANodeStopWithoutLossOrDuplicates(String transport, Infra infra, @TempDir Path dir)
            throws Exception {
        Chromium.assumeInstalled();
        String user = USER;
        // the page served by gw-a connects to both gateways and publishes through ingest: their origins are allowed
        try (Platform stack = Platform.forTest(infra, dir).gateways("gw-a", "gw-b").browserOrigins().start();
             Chromium chromium = Chromium.launch(dir.resolve("chromium"));
             DevToolsPage page = chromium.open(demoUrl(stack, "gw-a", stack.token(user), transport))) {

            page.waitFor("the page connects to gw-a over " + transport, connectedTo("gw-a", transport), WAIT);
            // with a connect ticket from gw-a (same origin), never the token in the URL
            assertTrue(stack.gateway("gw-a").metrics().count("notify.gateway.tickets.redeemed") >= 1, "gw-a redeemed a ticket");

            // 1. published by the page itself, through ingest (CORS); ingest chose the id
            page.evaluate("document.getElementById('pub-text').value = 'from the page';"
                    + "document.querySelector('#publish-form button[type=submit]').click()");
            page.waitFor("ingest accepts the page's event", "document.getElementById('pub-result').textContent.startsWith('accepted: ')", WAIT);
            String fromPage = page.text("document.getElementById('pub-result').textContent.split(' ')[1]");
            List<String> expected = new ArrayList<>(List.of(fromPage));
            awaitFeed(page, stack, expected);

            // 2. published by a service
            stack.publish(user, "e2");
            expected.add("e2");
            awaitFeed(page, stack, expected);

            // 3. gw-a dies without a drain: the browser sees its connection drop
            stack.gateway("gw-a").stop();
            page.waitFor("the page notices gw-a is gone", "!(" + connectedTo("gw-a", transport) + ")", WAIT);
            stack.publish(user, "e3");
            stack.publish(user, "e4");
            expected.addAll(List.of("e3", "e4"));

            // 4. it reconnects to gw-b by itself and catches up, then gets live events there
            page.waitFor("the page reconnects to gw-b", connectedTo("gw-b", transport), WAIT);
            // the ticket came from gw-b itself, across origins (CORS preflight from gw-a's page)
            assertTrue(stack.gateway("gw-b").metrics().count("notify.gateway.tickets.redeemed") >= 1, "gw-b redeemed a ticket");
            stack.publish(user, "e5");
            expected.add("e5");
            awaitFeed(page, stack, expected);
            assertEquals(List.of(1, 2, 3, 4, 5), seqs(page), "seqs in order, none repeated");
            assertEquals("gw-b", page.text(FEED + ".at(-1).dataset.node"));
            assertEquals("5", page.text("document.querySelector('#positions tr[data-stream=\"u:" + user + "\"] td:last-child').textContent"),
                    "the positions table shows the last processed seq");
            page.screenshot(Path.of("target", "demo-page-" + transport + ".png"));

            // 5. gw-a comes back; the page (served by gw-a) reloads with an empty feed and resumes from the
            //    position it persisted in localStorage: only events after e6 arrive
            stack.publish(user, "e6");
            awaitFeed(page, stack, List.of(fromPage, "e2", "e3", "e4", "e5", "e6"));
            stack.restartGateway("gw-a");
            page.reload();
            stack.publish(user, "e7");
            page.waitFor("the reloaded page connects to gw-a", connectedTo("gw-a", transport), WAIT);
            stack.publish(user, "e8");
            awaitFeed(page, stack, List.of("e7", "e8"));
            assertEquals(List.of(7, 8), seqs(page));
        }
    }

    /** The demo page on {@code nodeId} in dev mode: connected with {@code token} to all gateways (that node first), publish form on. */
    private static String demoUrl(Platform stack, String nodeId, String token, String transport) {
        Map<String, GatewayServer> gateways = new LinkedHashMap<>(stack.gateways());
        List<String> order = new ArrayList<>(List.of(nodeId));
        gateways.keySet().stream().filter(n -> !n.equals(nodeId)).forEach(order::add);
        return demoUrl(stack, Platform.http(gateways.get(nodeId).port()).toString(),
                order.stream().map(n -> Platform.http(gateways.get(n).port()).toString()).toList(), token, transport);
    }

    /**
     * The demo page served by the gateway at {@code origin}, in dev mode (publish forms on, through the
     * stack's ingest), connecting with {@code token} to {@code gateways} in that order over {@code transport}.
     */
    static String demoUrl(Platform stack, String origin, List<String> gateways, String token, String transport) {
        return origin + "/?token=" + enc(token) + "&gateways=" + enc(String.join(",", gateways))
                + "&transport=" + transport + "&ingest=" + enc(Platform.http(stack.ingestPort()).toString())
                + "&key=" + enc(DevKeys.PRODUCER_KEY);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** Server-side counters and the stream's inbox, for failure messages. */
    private static String diagnostics(Platform stack, String user) {
        StringBuilder sb = new StringBuilder();
        stack.gateways().forEach((nodeId, g) -> {
            sb.append(nodeId).append(":\n");
            g.meterRegistry().scrape().lines()
                    .filter(l -> l.matches("notify_gateway_(connections|events_delivered|duplicates_dropped|gap_fills|delivery_messages"
                            + "|resets|closes|events_replayed|acks)_?\\w*\\{?.*"))
                    .forEach(l -> sb.append("  ").append(l).append('\n'));
        });
        sb.append("fanout:\n");
        stack.fanout().meters().scrape().lines().filter(l -> l.startsWith("notify_") && !l.contains("_bucket{"))
                .forEach(l -> sb.append("  ").append(l).append('\n'));
        try {
            HttpResponse<String> inbox = stack.queryApi().get("/v1/streams/u:" + user + "/events?after=0&limit=50",
                    Duration.ofSeconds(5));
            sb.append("query API inbox of u:").append(user).append(": ").append(inbox.statusCode()).append(' ').append(inbox.body());
        } catch (IOException e) {
            sb.append("query API unreachable: ").append(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return sb.toString();
    }

    /** A JS condition: the demo page is connected to {@code nodeId} over {@code transport}. */
    static String connectedTo(String nodeId, String transport) {
        return "document.getElementById('state').dataset.state === 'connected'"
                + " && document.getElementById('node').textContent === '" + nodeId + "'"
                + " && document.getElementById('transport').textContent === '" + transport + "'";
    }

    /** Waits until the feed holds at least {@code ids.size()} events, then asserts it is exactly {@code ids}. */
    private static void awaitFeed(DevToolsPage page, Platform stack, List<String> ids) {
        try {
            page.waitFor("the feed shows " + ids, FEED + ".length >= " + ids.size(), WAIT);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nserver side:\n" + diagnostics(stack, USER), e);
        }
        assertEquals(ids, feedIds(page), "feed, in order, each once\n" + page.describe());
    }

    private static List<String> feedIds(DevToolsPage page) {
        List<String> ids = new ArrayList<>();
        for (JsonNode id : page.evaluate(FEED + ".map(li => li.dataset.id)")) {
            ids.add(id.asText());
        }
        return ids;
    }

    private static List<Integer> seqs(DevToolsPage page) {
        List<Integer> seqs = new ArrayList<>();
        for (JsonNode seq : page.evaluate(FEED + ".map(li => Number(li.dataset.seq))")) {
            seqs.add(seq.asInt());
        }
        return seqs;
    }
}
