package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.notify.fanout.push.PushStores;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.StreamId;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Push registrations applied where the user's stream lives, and carried by a push fallback (docs/push.md). */
class PushRegistrationsTest {

    static final StreamId U = StreamId.forUser("42");
    FanoutFixture f;

    @BeforeEach
    void open(@TempDir Path dir) {
        f = new FanoutFixture(dir, Map.of("notify.fanout.push.max-registrations", "2"), io.notify.fanout.routing.NodeTopics.assumeAll());
    }

    @AfterEach
    void close() {
        f.close();
    }

    static PushRegistration fcm(String token, long at) {
        return PushRegistration.of(null, new PushRegistration.Fcm(token), null, at);
    }

    private KeyValueStore<StreamId, PushRegistrations> store() {
        return f.driver.getKeyValueStore(PushStores.REGISTRATIONS);
    }

    private List<String> held() {
        PushRegistrations r = store().get(U);
        return r == null ? List.of() : r.registrations().stream().map(x -> x.fcm().token()).toList();
    }

    private double count(String kind, String outcome) {
        var c = f.metrics.registry().find("notify.fanout.push.changes").tags("kind", kind, "outcome", outcome).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void registrationsAreKeptBoundedAndPublishedCompacted() {
        f.pushChange(PushChange.register(U, fcm("a", 1), 1));
        f.pushChange(PushChange.register(U, fcm("b", 2), 2));
        f.pushChange(PushChange.register(U, fcm("a", 3), 3)); // the same device again: replaced, keeps its first createdAt
        assertEquals(List.of("a", "b"), held());
        assertEquals(1, store().get(U).find(fcm("a", 0).id()).createdAt());
        f.pushChange(PushChange.register(U, fcm("c", 4), 4)); // past the bound of 2: the oldest goes
        assertEquals(List.of("b", "c"), held());
        assertEquals(1, count("register", "evicted"));
        f.pushChange(PushChange.unregister(U, fcm("b", 0).id(), 5));
        f.pushChange(PushChange.gone(U, fcm("nobody", 0).id(), "UNREGISTERED", 6)); // unknown: changes nothing
        assertEquals(List.of("c"), held());
        assertEquals(1, count("gone", "unknown_id"));
        List<KeyValue<StreamId, PushRegistrations>> published = f.output(f.topics.pushRegistrations()).readKeyValuesToList();
        assertEquals(5, published.size(), "one state per applied change: " + published);
        PushRegistrations last = published.get(published.size() - 1).value;
        assertEquals(PushChange.Kind.UNREGISTER, last.change().kind(), "the state says which change made it");
        assertEquals(List.of("c"), last.registrations().stream().map(x -> x.fcm().token()).toList());
    }

    @Test
    void aRecordElsewhereOrUnreadableIsDroppedAndCounted() {
        PushChange c = PushChange.register(U, fcm("a", 1), 1);
        f.pushChange("u:43".getBytes(StandardCharsets.UTF_8), io.notify.schemas.serde.NotifySerdes.pushChange().serializer().serialize(null, c));
        f.pushChange(U.value().getBytes(StandardCharsets.UTF_8), "{\"kind\":\"register\"}".getBytes(StandardCharsets.UTF_8));
        assertNull(store().get(U));
        assertEquals(1, count("register", "misplaced"));
        assertEquals(1, count("unknown", "unreadable"));
    }

    @Test
    void aPushFallbackCarriesTheUsersRegistrationsAndOtherChannelsNone() {
        f.pushChange(PushChange.register(U, fcm("phone", 1), 1));
        f.send("p1", "{\"id\":\"p1\",\"type\":\"t\",\"to\":{\"users\":[\"42\",\"43\"]},\"fallback\":{\"after\":\"10s\",\"channel\":\"push\"}}");
        f.send("e1", "{\"id\":\"e1\",\"type\":\"t\",\"to\":{\"users\":[\"42\"]},\"fallback\":{\"after\":\"10s\",\"channel\":\"email\"}}");
        f.advance(Duration.ofSeconds(11));
        List<KeyValue<StreamId, FallbackRecord>> out = f.output(f.topics.fallback()).readKeyValuesToList();
        assertEquals(3, out.size(), out.toString());
        for (KeyValue<StreamId, FallbackRecord> kv : out) {
            FallbackRecord r = kv.value;
            List<String> tokens = r.push().stream().map(x -> x.fcm().token()).toList();
            if (r.channel().equals("push") && kv.key.equals(U)) {
                assertEquals(List.of("phone"), tokens, "42's devices");
            } else {
                assertEquals(List.of(), tokens, "43 registered nothing; e-mail carries no devices: " + r);
            }
        }
    }
}
