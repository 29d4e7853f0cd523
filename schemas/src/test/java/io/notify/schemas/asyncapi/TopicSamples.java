package io.notify.schemas.asyncapi;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.Channel;
import io.notify.protocol.event.Digest;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.event.Recall;
import io.notify.protocol.event.Recipients;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.prefs.Channels;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.QuietHours;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.stream.UndeliveredEvent;
import io.notify.protocol.stream.UndeliveredReason;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.Topic;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Records of every JSON topic, built with the records' constructors and written by the topic's own
 * serdes from {@link TopicCatalog}: what a consumer of that topic really reads. Each kind's
 * optional fields appear in at least one sample, so a schema that lacks one fails.
 */
final class TopicSamples {

    /** One record as written: key and value bytes. */
    /** One record; {@code message} names the channel's message it is, where the channel has more than one (else null). */
    record Sample(byte[] key, byte[] value, String message) {

        Sample(byte[] key, byte[] value) {
            this(key, value, null);
        }

        boolean is(String name) {
            return message == null || message.equals(name);
        }
    }

    static final StreamId U42 = StreamId.forUser("42");
    static final StreamId ROOM = StreamId.forRoom("chat-1");
    static final String EPOCH = "k3x9m2p8q7rdw5ta";
    static final Fallback PUSH = new Fallback("2m", "push");

    /** One registration of each provider, the Web Push one with an expirationTime (optional) and padded keys. */
    static final PushRegistration WEB_PUSH = PushRegistration.of(new PushRegistration.WebPush(
            "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bH", 1767225600000L,
            new PushRegistration.Keys(base64Url(p256Point()) + "=", base64Url(bytes(16, 7)) + "==")), null, null, 1764400000000L);
    static final PushRegistration FCM = PushRegistration.of(null, new PushRegistration.Fcm("eXb3:APA91bF-x_y.z"), null,
            1764400100000L);
    static final PushRegistration APNS = PushRegistration.of(null, null,
            new PushRegistration.Apns("ab12".repeat(16), "com.example.app.voip", "sandbox"), 1764400200000L);

    private TopicSamples() {
    }

    /** Samples by topic address as docs/asyncapi.yaml names it (a node topic as notify.node.{nodeId}). */
    static Map<String, List<Sample>> byAddress(TopicCatalog topics) {
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("orderId", "ord-1");
        OffsetDateTime occurred = OffsetDateTime.parse("2026-11-29T10:15:30.123+01:00");

        SequencedEvent full = new SequencedEvent(U42, EPOCH, 17, "ord-1:shipped", "order.shipped", data, occurred, "orders",
                1764410130100L, 1764410130123L, PUSH, "order:ord-1");
        SequencedEvent bare = new SequencedEvent(ROOM, EPOCH, 1, "msg-88", "chat.message", null, null, null, 5, 6);
        Digest digest = new Digest("comments:post-9", "15m");
        SequencedEvent folded = new SequencedEvent(U42, EPOCH, 18, "c-2", "comment.added", data, null, "social", 1764410140100L,
                1764410140123L, PUSH, null, "social", false, digest, List.of(Channel.LIVE));
        SequencedEvent foldedFirst = new SequencedEvent(U42, EPOCH, 16, "c-1", "comment.added", data, null, "social",
                1764410120100L, 1764410120123L, PUSH, null, "social", false, digest, List.of());
        SequencedEvent critical = new SequencedEvent(U42, EPOCH, 19, "sec-1", "security.sign-in", data, null, "auth",
                1764410150100L, 1764410150123L, null, null, "security", true, null, List.of(), 1764410750100L);
        LiveEvent live = new LiveEvent(U42, "typing-1", "chat.typing", JsonNodeFactory.instance.objectNode().put("room", "r1"),
                occurred, "typing:r1", "chat", 1764410130100L);
        LiveEvent liveBare = new LiveEvent(StreamId.BROADCAST, "b-1", "banner", null, null, null, null, 0);

        Map<String, List<Sample>> out = new LinkedHashMap<>();
        out.put(topics.events().name(), write(topics.events(),
                envelopeSample(new EventEnvelope("ord-1:shipped", "order.shipped", Recipients.users("42", "43"), EventClass.DURABLE,
                        data, occurred, "order:ord-1", "orders", PUSH)),
                envelopeSample(new EventEnvelope("msg-88", "chat.message", new Recipients(List.of("7"), List.of("chat-1"), true),
                        EventClass.EPHEMERAL, null, null, null, null)),
                envelopeSample(EventEnvelope.durable("banner", null, Recipients.everyone())),
                envelopeSample(new EventEnvelope("c-2", "comment.added", Recipients.users("42"), EventClass.DURABLE, data, null, null,
                        "social", PUSH).withPolicy("social", false, digest)),
                envelopeSample(EventEnvelope.durable("security.sign-in", data, "42").withPolicy("security", true, null)
                        .withExpiry(null, "10m")),
                envelopeSample(EventEnvelope.durable("flash.sale", data, "42").withExpiry(occurred, null)),
                envelopeSample(EventEnvelope.durable("order.shipped", data, "42").withCancellationKey("order-1")))
                .stream().map(s -> new Sample(s.key(), s.value(), "eventEnvelope")).collect(Collectors.toCollection(ArrayList::new)));
        // a recall is the events topic's second message: its own JSON, keyed like the events it takes back
        for (Recall r : List.of(new Recall("rc-1", Recall.Target.event("ord-1:shipped"), Recipients.users("42", "43")),
                new Recall("rc-2", Recall.Target.key("order-1"), Recipients.users("42")))) {
            out.get(topics.events().name()).add(new Sample(r.recordKey().getBytes(StandardCharsets.UTF_8),
                    recallJson(r), "recall"));
        }
        out.put(topics.streamLog().name(), write(topics.streamLog(), streamSample(full), streamSample(bare), streamSample(folded),
                streamSample(critical), streamSample(full.asRecalled())));
        List<DeliveryMessage> deliveries = List.of(
                DeliveryMessage.toConnections(full, List.of("c-7f3a", "c-8b"), 1764410130125L),
                DeliveryMessage.toAll(live, 1764410130125L),
                DeliveryMessage.toAll(bare, 7),
                DeliveryMessage.toAll(liveBare, 7));
        Topic<StreamId, DeliveryMessage> node = topics.node("gw-1");
        out.put(TopicCatalog.NODE_PREFIX + "{nodeId}", write(node, deliveries.stream().map(TopicSamples::streamSample).toList()));
        out.put(topics.allNodes().name(), write(topics.allNodes(), deliveries.stream().map(TopicSamples::streamSample).toList()));
        out.put(topics.undelivered().name(), write(topics.undelivered(),
                streamSample(UndeliveredEvent.of(full, UndeliveredReason.NO_LIVE_CONNECTION, 1764410130130L)),
                streamSample(UndeliveredEvent.of(live, UndeliveredReason.REGISTRY_UNAVAILABLE, 1764410130130L))));
        out.put(topics.receipts().name(), write(topics.receipts(),
                streamSample(Receipt.ack(U42, EPOCH, 20, "phone-1", 1764410130100L)),
                streamSample(Receipt.markUpTo(U42, ReceiptKind.READ, null, 17, null, 1764410131200L)),
                streamSample(Receipt.markIds(U42, ReceiptKind.ARCHIVE, EPOCH, List.of("ord-1:shipped", "ord-2:shipped"), "phone-1", 3))));
        InboxState state = InboxState.empty(U42, EPOCH)
                .markUpTo(ReceiptKind.SEEN, 19, 10)
                .markUpTo(ReceiptKind.READ, 17, 11)
                .markSeqs(ReceiptKind.READ, List.of(19L, 21L), 12)
                .acked("phone-1", 20, 1764410130100L, 10);
        out.put(topics.inboxState().name(), write(topics.inboxState(),
                streamSample(InboxState.empty(U42, EPOCH)), streamSample(state)));
        FallbackRecord withPush = new FallbackRecord(U42.value(), "42", "push", FallbackRecord.Reason.NO_ACK, full,
                List.of(new FallbackRecord.Device("phone-1", 15, 1764410100000L)), 1764410250123L, 1764410250480L,
                List.of(WEB_PUSH, FCM, APNS));
        out.put(topics.fallback().name(), write(topics.fallback(),
                streamSample(withPush),
                streamSample(new FallbackRecord(U42.value(), "42", "push", FallbackRecord.Reason.NO_ACK, full,
                        List.of(new FallbackRecord.Device("phone-1", 15, 1764410100000L)), 1764410250123L, 1764410250480L)),
                streamSample(new FallbackRecord(U42.value(), "42", "push", FallbackRecord.Reason.NO_DEVICE, full, List.of(), 1, 2)),
                streamSample(new FallbackRecord(U42.value(), "42", "push", FallbackRecord.Reason.NO_DEVICE, folded, List.of(), 3, 4,
                        List.of(), new FallbackRecord.Digested(digest.key(), 2, foldedFirst)))));
        Preferences prefs = new Preferences(
                Map.of("order.shipped", new Channels(false, true, false), "comment.added", new Channels(null, null, false)),
                Map.of("marketing", new Channels(null, null, false)), new QuietHours("22:00", "07:00", "Europe/Berlin"));
        out.put(topics.preferences().name(), write(topics.preferences(),
                streamSample(new UserPreferences(U42, prefs, 1764410000000L)),
                streamSample(new UserPreferences(U42, Preferences.NONE, 1764410100000L))));

        PushChange register = PushChange.register(U42, WEB_PUSH, 1764400000000L);
        PushChange gone = PushChange.gone(U42, FCM.id(), "UNREGISTERED: Requested entity was not found.", 1764410251000L);
        out.put(topics.pushChanges().name(), write(topics.pushChanges(),
                streamSample(register),
                streamSample(PushChange.register(U42, FCM, 1764400100000L)),
                streamSample(PushChange.register(U42, APNS, 1764400200000L)),
                streamSample(PushChange.unregister(U42, APNS.id(), 1764410252000L)),
                streamSample(gone)));
        out.put(topics.pushRegistrations().name(), write(topics.pushRegistrations(),
                streamSample(new PushRegistrations(U42, List.of(WEB_PUSH, FCM, APNS), PushChange.register(U42, APNS, 1764400200000L),
                        1764400200000L)),
                streamSample(new PushRegistrations(U42, List.of(WEB_PUSH, APNS), gone, gone.at())),
                streamSample(PushRegistrations.empty(U42))));
        out.put(topics.pushOutcomes().name(), write(topics.pushOutcomes(),
                streamSample(new PushOutcome(U42, full.id(), full.seq(), WEB_PUSH.id(), WEB_PUSH.provider(), PushOutcome.Outcome.SENT, 1,
                        201, null, "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bH/m-1", 1764410250700L)),
                streamSample(new PushOutcome(U42, full.id(), full.seq(), APNS.id(), APNS.provider(), PushOutcome.Outcome.RETRY, 2, 429,
                        "TooManyRequests", null, 1764410251500L)),
                streamSample(new PushOutcome(U42, full.id(), full.seq(), null, null, PushOutcome.Outcome.NO_REGISTRATION, 0, 0, null,
                        null, 1764410250600L))));
        // the push sender writes the fallback record (the record's own bytes), narrowed to the registration that failed
        FallbackRecord narrowed = new FallbackRecord(withPush.stream(), withPush.userId(), withPush.channel(), withPush.reason(),
                withPush.event(), withPush.devices(), withPush.dueAt(), withPush.at(), List.of(APNS));
        out.put(topics.pushDlq().name(), write(topics.pushDlq(),
                new Keyed<>(U42, NotifySerdes.fallbackRecord().serializer().serialize(topics.fallback().name(), narrowed))));
        return out;
    }

    private record Keyed<K, V>(K key, V value) {
    }

    private static byte[] recallJson(Recall r) {
        try {
            return NotifyJson.mapper().writeValueAsBytes(r);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Keyed<String, EventEnvelope> envelopeSample(EventEnvelope e) {
        return new Keyed<>(e.recordKey(), e);
    }

    /** A record keyed by its stream, as every stream-keyed topic is. */
    private static <V> Keyed<StreamId, V> streamSample(V value) {
        StreamId stream;
        if (value instanceof StreamEvent e) {
            stream = e.stream();
        } else if (value instanceof DeliveryMessage d) {
            stream = d.stream();
        } else if (value instanceof UndeliveredEvent u) {
            stream = u.stream();
        } else if (value instanceof Receipt r) {
            stream = r.stream();
        } else if (value instanceof InboxState i) {
            stream = i.stream();
        } else if (value instanceof FallbackRecord f) {
            stream = StreamId.parse(f.stream());
        } else if (value instanceof PushChange c) {
            stream = c.stream();
        } else if (value instanceof PushRegistrations r) {
            stream = r.stream();
        } else if (value instanceof PushOutcome o) {
            stream = o.stream();
        } else if (value instanceof UserPreferences p) {
            stream = p.stream();
        } else {
            throw new IllegalArgumentException("no stream key for " + value);
        }
        return new Keyed<>(stream, value);
    }

    /** An uncompressed P-256 point's shape: 0x04 and 64 bytes (PushRegistration.Keys checks no more). */
    private static byte[] p256Point() {
        byte[] point = bytes(65, 3);
        point[0] = 4;
        return point;
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed + 31 * i);
        }
        return b;
    }

    static String base64Url(byte[] b) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    @SafeVarargs
    private static <K, V> List<Sample> write(Topic<K, V> topic, Keyed<K, ? extends V>... records) {
        return write(topic, List.of(records));
    }

    private static <K, V> List<Sample> write(Topic<K, V> topic, List<? extends Keyed<K, ? extends V>> records) {
        List<Sample> out = new ArrayList<>();
        for (Keyed<K, ? extends V> r : records) {
            out.add(new Sample(topic.keySerde().serializer().serialize(topic.name(), r.key()),
                    topic.valueSerde().serializer().serialize(topic.name(), r.value())));
        }
        return out;
    }
}
