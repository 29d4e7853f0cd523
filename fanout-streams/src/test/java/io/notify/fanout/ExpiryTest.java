package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.fanout.inbox.InboxStores;
import io.notify.fanout.intake.IntakeProcessor;
import io.notify.fanout.prefs.PreferenceStores;
import io.notify.fanout.push.PushStores;
import io.notify.fanout.query.InboxPages;
import io.notify.fanout.query.InboxReader;
import io.notify.fanout.query.StreamOwners;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.DlqFailure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Events with expiresAt or ttl through the whole topology (docs/protocol.md, "Expiry"). */
class ExpiryTest {

    static final StreamId U = StreamId.forUser("42");
    FanoutFixture f;

    @BeforeEach
    void open(@TempDir Path dir) {
        f = new FanoutFixture(dir);
        f.connect("42", "gw-1", "i1", "c1");
    }

    @AfterEach
    void close() {
        f.close();
    }

    private void send(String id, String clazz, String extra) {
        f.send(id, "{\"id\":\"" + id + "\",\"type\":\"flash.sale\",\"to\":{\"users\":[\"42\"]},\"class\":\"" + clazz + "\"" + extra + "}");
    }

    @Test
    void anEventExpiredBeforeItIsReadGoesToTheDlqWithTheReason() {
        send("old", "durable", ",\"expiresAt\":\"2025-12-31T23:59:59Z\""); // the fixture's clock is 2026-01-01
        var dlq = f.dlq().readRecordsToList();
        assertEquals(1, dlq.size());
        DlqFailure failure = DlqFailure.readFrom(dlq.get(0).headers()).orElseThrow();
        assertEquals(IntakeProcessor.KIND_EXPIRED, failure.kind());
        assertTrue(failure.error().contains("expired at 2025-12-31T23:59:59Z"), failure.error());
        assertEquals(List.of(), f.streamLog());
    }

    @Test
    void aTtlIsCarriedToTheStreamLogAndTheNodeAndAnEphemeralEventReadAfterItsExpiryGoesToTheDlq() {
        send("sale-1", "durable", ",\"ttl\":\"10m\"");
        SequencedEvent logged = f.streamLog().get(0).value;
        assertEquals(f.clock.millis() + 600_000, logged.expiresAt());
        DeliveryMessage routed = f.node("gw-1").get(0).value;
        assertEquals(logged.expiresAt(), routed.event().expiresAt(), "the gateway sends its position once it has expired");
        send("typing", "ephemeral", ",\"ttl\":\"1s\"");
        assertEquals(1, f.node("gw-1").size(), "within its ttl: routed");
        f.clock.advance(Duration.ofSeconds(2)); // a record read after its ttl (say, after a backlog)
        f.send(null, "{\"id\":\"typing-2\",\"type\":\"flash.sale\",\"to\":{\"users\":[\"42\"]},\"class\":\"ephemeral\","
                + "\"expiresAt\":\"2026-01-01T00:00:01.500Z\"}");
        assertEquals(1, f.dlq().readRecordsToList().size(), "expired before intake: the DLQ");
        var expired = f.metrics.registry().find("notify.fanout.dlq").tags("kind", "expired").counter();
        assertEquals(1.0, expired.count());
    }

    @Test
    void aFallbackDueAfterItsEventExpiredIsCancelled() {
        send("short", "durable", ",\"ttl\":\"20s\",\"fallback\":{\"after\":\"30s\",\"channel\":\"push\"}");
        f.advance(Duration.ofSeconds(31));
        List<KeyValue<StreamId, FallbackRecord>> out = f.output(f.topics.fallback()).readKeyValuesToList();
        assertEquals(List.of(), out);
        assertEquals(1.0, f.metrics.registry().find("notify.fanout.fallback").tags("outcome", "cancelled_expired").counter().count());
    }

    @Test
    void theInboxDoesNotListAnExpiredEvent() {
        send("keep", "durable", "");
        send("sale", "durable", ",\"ttl\":\"1m\"");
        InboxReader.StreamState state = state();
        assertEquals(List.of("sale", "keep"), ids(InboxPages.page(state, U, null, 10, InboxPages.Archived.EXCLUDE, f.clock.millis())));
        assertEquals(List.of("keep"), ids(InboxPages.page(state, U, null, 10, InboxPages.Archived.EXCLUDE, f.clock.millis() + 60_000)));
    }

    private static List<String> ids(InboxPages.Page page) {
        return page.events().stream().map(i -> i.event().id()).toList();
    }

    private InboxReader.StreamState state() {
        return StreamOwners.over(f.heads(), f.inbox(), f.driver.getKeyValueStore(InboxStores.INBOX_STATE),
                f.driver.getKeyValueStore(PushStores.REGISTRATIONS), f.driver.getKeyValueStore(PreferenceStores.PREFERENCES));
    }
}
