package io.notify.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.client.support.FakeGateway;
import io.notify.client.support.FakeGateway.InboxAnswer;
import io.notify.client.support.FakeGateway.InboxRequest;
import io.notify.client.support.Recorder;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.platform.Platform;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.prefs.Channels;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.QuietHours;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.Topic;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletionException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The preferences calls against a real gateway (docs/inbox.md, "Preferences"): the platform on the
 * devstack's Kafka and Redis, so a put is the user's record on {@code notify.preferences} (read back
 * with a real consumer), a get is what fanout-streams' query API holds once it applied it, and a reset
 * is the record's tombstone; and on the wire against a scripted {@link FakeGateway}, a 400 the client
 * cannot provoke itself (its records refuse what the gateway would) surfaced with its detail.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(150)
class PreferencesIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Preferences PREFS = new Preferences(Map.of("order.shipped", new Channels(false, true, false)),
            Map.of("marketing", new Channels(null, null, false)), new QuietHours("22:00", "07:00", "Europe/Berlin"));

    @TempDir
    static Path dir;
    static Infra infra;
    static Platform stack;

    @BeforeAll
    static void startStack() throws Exception {
        stack = Platform.forTest(infra, dir).gateways("gw-prefs").start();
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.close();
        }
    }

    /** Every record of {@code stream} on notify.preferences, once there are at least {@code atLeast}. */
    private static List<ConsumerRecord<StreamId, UserPreferences>> records(StreamId stream, int atLeast) {
        Topic<StreamId, UserPreferences> topic = stack.config().topics().preferences();
        List<ConsumerRecord<StreamId, UserPreferences>> read = new ArrayList<>();
        try (KafkaConsumer<StreamId, UserPreferences> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers(), ConsumerConfig.GROUP_ID_CONFIG,
                "preferences-it-" + System.nanoTime(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                topic.keySerde().deserializer(), topic.valueSerde().deserializer())) {
            consumer.subscribe(List.of(topic.name()));
            Await.until(() -> atLeast + " records of " + stream + " on " + topic.name() + ", got " + read, WAIT, () -> {
                consumer.poll(Duration.ofMillis(100)).forEach(r -> {
                    if (stream.equals(r.key())) {
                        read.add(r);
                    }
                });
                return read.size() >= atLeast;
            });
        }
        return read;
    }

    @Test
    void putIsTheUsersRecordGetIsWhatFanoutAppliedAndResetIsTheTombstone() {
        String user = "prefs-ada";
        StreamId stream = StreamId.forUser(user);
        URI gateway = Platform.http(stack.gatewayPorts().get(0));
        try (NotifyClient client = NotifyClient.builder().gateways(List.of(gateway)).token(refresh -> stack.token(user))
                .listener(event -> { }).build()) { // not started: the preferences calls need no connection
            assertEquals(Preferences.NONE, client.preferences().join(), "nothing set yet: every channel on");

            assertEquals(PREFS, client.putPreferences(PREFS).join(), "the document stored");
            ConsumerRecord<StreamId, UserPreferences> written = records(stream, 1).get(0);
            assertEquals(PREFS, written.value().preferences());
            assertEquals(stream, written.value().stream(), "the token's own stream");

            Await.until("the query API to serve the put", WAIT, () -> PREFS.equals(client.preferences().join()));
            assertTrue(!client.preferences().join().channelsFor("order.shipped", "marketing").pushOn());

            assertNull(client.resetPreferences().join()); // 204
            assertNull(records(stream, 2).get(1).value(), "a tombstone");
            Await.until("the query API to serve the reset", WAIT, () -> Preferences.NONE.equals(client.preferences().join()));
        }
    }

    @Test
    void aRefusedDocumentFailsWithThePreferencesKindAndTheDetailOnTheWire() throws Exception {
        try (FakeGateway fake = new FakeGateway();
             NotifyClient client = fake.client(new Recorder()).build()) {
            fake.preferenceAnswers.add(InboxAnswer.problem(400, "invalid-body", "quietHours.timeZone must be an IANA time zone", null));
            NotifyClientException refused = (NotifyClientException) assertThrows(CompletionException.class,
                    () -> client.putPreferences(PREFS).join()).getCause();
            assertEquals(NotifyClientException.Kind.PREFERENCES, refused.kind());
            assertEquals(OptionalInt.of(400), refused.httpStatus());
            assertEquals(Optional.of("urn:notify:problem:invalid-body"), refused.problemType());
            assertEquals(Optional.of("quietHours.timeZone must be an IANA time zone"), refused.problemDetail());
            InboxRequest put = fake.nextPreferences(WAIT);
            assertEquals("PUT /v1/preferences Bearer t1 application/json",
                    put.method() + " " + put.path() + " " + put.authorization() + " " + put.contentType());
            assertEquals(NotifyJson.mapper().readTree(NotifyJson.mapper().writeValueAsString(PREFS)), NotifyJson.mapper().readTree(put.body()));

            assertEquals(Preferences.NONE, client.preferences().join());
            InboxRequest get = fake.nextPreferences(WAIT);
            assertEquals("GET /v1/preferences Bearer t1", get.method() + " " + get.path() + " " + get.authorization());
            assertNull(client.resetPreferences().join());
            InboxRequest delete = fake.nextPreferences(WAIT);
            assertEquals("DELETE /v1/preferences ", delete.method() + " " + delete.path() + " " + delete.body());
        }
    }
}
