package io.notify.e2e.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.platform.Platform;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A producer's recall in real headless Chromium, through the demo page (notify.js {@code onRecalled},
 * docs/protocol.md §3.7): events published by a service to the page's user are listed in the live feed
 * and the inbox panel and ring the bell; the service recalls one through ingest
 * ({@code DELETE /v1/events/{id}}); the page removes it from the feed and the inbox, says it was recalled,
 * and the bell drops by the state frame that follows. The stream goes on where it was: the next event
 * is the next seq, with no reset and nothing replayed. Once over WebSocket and once over SSE. Skipped
 * where the Debian chromium package is not installed.
 */
@ExtendWith(NotifyInfraExtension.class)
class RecallPageIT {

    private static final String USER = "88";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String FEED = "[...document.querySelectorAll('#feed li[data-kind=event]')]";

    @EachTransport
    @Timeout(150)
    void aRecalledEventLeavesThePageAndTheBellDrops(String transport, Infra infra, @TempDir Path dir) throws Exception {
        Chromium.assumeInstalled();
        try (Platform stack = Platform.forTest(infra, dir).gateways("gw-a").browserOrigins().start();
             Chromium chromium = Chromium.launch(dir.resolve("chromium"))) {
            String a = Platform.http(stack.gateway("gw-a").port()).toString();
            DevToolsPage page = chromium.open(DemoPageIT.demoUrl(stack, a, List.of(a), stack.token(USER), transport));
            page.waitFor("the page connects to gw-a", DemoPageIT.connectedTo("gw-a", transport), WAIT);
            awaitBell(page, 0);

            stack.publish(USER, "rc-1");
            stack.publish(USER, "rc-2");
            page.waitFor("the feed lists both", FEED + ".length === 2", WAIT);
            awaitBell(page, 2);
            awaitList(page, List.of("rc-2:unseen", "rc-1:unseen"));

            stack.publishing().recall("rc-1", USER);
            page.waitFor("the recalled event leaves the feed", FEED + ".map(li => li.dataset.id).join() === 'rc-2'", WAIT);
            page.waitFor("the page says it was recalled",
                    "document.querySelector('#feed li[data-kind=recalled][data-id=\"rc-1\"][data-seq=\"1\"]') !== null", WAIT);
            awaitBell(page, 1);
            awaitList(page, List.of("rc-2:unseen"));
            page.screenshot(Path.of("target", "recall-page-" + transport + ".png"));

            stack.publish(USER, "rc-3");
            page.waitFor("the next event follows", FEED + ".length === 2", WAIT);
            assertEquals(List.of("rc-2:2", "rc-3:3"), feed(page), "the stream goes on where it was, nothing replayed");
            assertEquals(0, page.evaluate("document.querySelectorAll('#feed li[data-kind=reset]').length").asInt(), "no reset");
            assertEquals("3", page.text("document.querySelector('#positions tr[data-stream=\"u:" + USER + "\"] td:last-child').textContent"));
            awaitBell(page, 2);
        }
    }

    /** The feed's events as {@code <id>:<seq>}, in order. */
    private static List<String> feed(DevToolsPage page) {
        List<String> out = new ArrayList<>();
        for (JsonNode e : page.evaluate(FEED + ".map(li => li.dataset.id + ':' + li.dataset.seq)")) {
            out.add(e.asText());
        }
        return out;
    }

    private static void awaitBell(DevToolsPage page, int unread) {
        page.waitFor("the bell shows " + unread, "document.getElementById('bell-count').dataset.unread === '" + unread + "'", WAIT);
    }

    /** Waits until the page's inbox list is exactly {@code items} ({@code <id>:<state>}, newest first). */
    private static void awaitList(DevToolsPage page, List<String> items) {
        String expected = items.stream().map(i -> "'" + i + "'").collect(Collectors.joining(","));
        String shown = "[...document.querySelectorAll('#inbox li')].map(li => li.dataset.id + ':' + li.dataset.state)";
        page.waitFor("the inbox lists " + items, shown + ".join() === [" + expected + "].join()", WAIT);
    }
}
