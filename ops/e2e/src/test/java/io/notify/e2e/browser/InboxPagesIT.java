package io.notify.e2e.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.platform.Platform;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inbox in real headless Chromium, through the demo page's bell and inbox panel (notify.js
 * {@code inbox}, {@code markRead}, {@code archive}, state frames and the unread estimate): two tabs of
 * one user, each served by and connected to its own gateway, on its own origin, so each keeps its own
 * localStorage and is its own device. Events published by a service ring both bells; "mark all read"
 * in tab 1 brings tab 2's bell to 0 within {@link #SYNC} (the state frame fanout-streams sends every
 * device of the user) and both lists show the events read, the change named by tab 1's device; an
 * event archived in tab 2 leaves tab 1's list; a later event, above the head of the last state,
 * counts on both bells; tab 1 reloads with the same device id and reads its count again. Once over
 * WebSocket and once over SSE. Skipped where the Debian chromium package is not installed.
 */
@ExtendWith(NotifyInfraExtension.class)
class InboxPagesIT {

    private static final String USER = "77";
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** How long a mark may take to reach the other tab (the state frame's path takes about 100 ms: docs/inbox.md). */
    private static final Duration SYNC = Duration.ofSeconds(5);
    private static final String DEVICE = "document.getElementById('device').textContent";

    @EachTransport
    @Timeout(180)
    void aMarkInOneTabReachesTheOtherTabsBellAndList(String transport, Infra infra, @TempDir Path dir) throws Exception {
        Chromium.assumeInstalled();
        try (Platform stack = Platform.forTest(infra, dir).gateways("gw-a", "gw-b").browserOrigins().start();
             Chromium chromium = Chromium.launch(dir.resolve("chromium"))) {
            String a = Platform.http(stack.gateway("gw-a").port()).toString();
            String b = Platform.http(stack.gateway("gw-b").port()).toString();
            String token = stack.token(USER);
            DevToolsPage tab1 = chromium.open(DemoPageIT.demoUrl(stack, a, List.of(a, b), token, transport));
            DevToolsPage tab2 = chromium.open(DemoPageIT.demoUrl(stack, b, List.of(b, a), token, transport));
            tab1.waitFor("tab 1 connects to gw-a", DemoPageIT.connectedTo("gw-a", transport), WAIT);
            tab2.waitFor("tab 2 connects to gw-b", DemoPageIT.connectedTo("gw-b", transport), WAIT);
            awaitBell(tab1, 0, WAIT); // the counts the client reads after its welcome
            awaitBell(tab2, 0, WAIT);
            String device1 = tab1.text(DEVICE);
            assertNotEquals(device1, tab2.text(DEVICE), "two origins, two localStorages: two devices");

            // events ring both bells and fill both lists, newest first, unseen
            for (String id : List.of("in-1", "in-2", "in-3")) {
                stack.publish(USER, id);
            }
            for (DevToolsPage tab : List.of(tab1, tab2)) {
                awaitBell(tab, 3, WAIT);
                awaitList(tab, List.of("in-3:unseen", "in-2:unseen", "in-1:unseen"), WAIT);
            }

            // "mark all read" in tab 1: tab 2 follows by the state frame alone
            tab1.evaluate("document.getElementById('mark-all-read').click()");
            awaitBell(tab2, 0, SYNC);
            awaitList(tab2, List.of("in-3:read", "in-2:read", "in-1:read"), SYNC);
            awaitBell(tab1, 0, SYNC);
            awaitList(tab1, List.of("in-3:read", "in-2:read", "in-1:read"), SYNC);
            assertEquals(device1, tab2.text("document.getElementById('inbox-change').dataset.device"),
                    "tab 2 learns which device marked the events");

            // archived in tab 2: it leaves tab 1's list
            tab2.evaluate("document.querySelector('#inbox li[data-id=\"in-2\"] .archive').click()");
            awaitList(tab1, List.of("in-3:read", "in-1:read"), SYNC);
            awaitList(tab2, List.of("in-3:read", "in-1:read"), SYNC);

            // a new event counts on both bells: above the head of the last state
            stack.publish(USER, "in-4");
            for (DevToolsPage tab : List.of(tab1, tab2)) {
                awaitBell(tab, 1, WAIT);
                awaitList(tab, List.of("in-4:unseen", "in-3:read", "in-1:read"), WAIT);
            }
            tab2.evaluate("window.scrollTo(0, 0)");
            tab2.screenshot(Path.of("target", "inbox-pages-" + transport + ".png"));

            // tab 1 reloads: the same device id from localStorage, the count read again after the welcome
            tab1.reload();
            tab1.waitFor("tab 1 reconnects to gw-a after the reload", DemoPageIT.connectedTo("gw-a", transport), WAIT);
            assertEquals(device1, tab1.text(DEVICE), "the device id outlives the page");
            awaitBell(tab1, 1, WAIT);
        }
    }

    /** Waits until the page's bell shows {@code unread}. */
    private static void awaitBell(DevToolsPage page, int unread, Duration timeout) {
        page.waitFor("the bell shows " + unread, "document.getElementById('bell-count').dataset.unread === '" + unread + "'", timeout);
    }

    /** Waits until the page's inbox list is exactly {@code items} ({@code <id>:<state>}, newest first). */
    private static void awaitList(DevToolsPage page, List<String> items, Duration timeout) {
        String expected = items.stream().map(i -> "'" + i + "'").collect(Collectors.joining(","));
        String shown = "[...document.querySelectorAll('#inbox li')].map(li => li.dataset.id + ':' + li.dataset.state)";
        page.waitFor("the inbox lists " + items, shown + ".join() === [" + expected + "].join()", timeout);
    }
}
