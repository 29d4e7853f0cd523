package io.notify.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.notify.client.support.FakeGateway;
import io.notify.client.support.FakeGateway.InboxAnswer;
import io.notify.client.support.FakeGateway.InboxRequest;
import io.notify.client.support.Recorder;
import io.notify.protocol.NotifyJson;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The push registration calls on the wire, against a scripted {@link FakeGateway} (real HTTP on
 * loopback, no Kafka): the methods, paths, bearer token and bodies the gateway receives, a 201, a
 * listing, a 204 without a body, a 404 problem, and a 401 refreshed once.
 */
@Timeout(60)
class PushBehaviourIT {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final FakeGateway gateway = new FakeGateway();

    @AfterEach
    void stopGateway() {
        gateway.close();
    }

    @Test
    void registerListAndUnregisterOnTheWire() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (NotifyClient client = gateway.client(new Recorder()).token(refresh -> "t" + calls.incrementAndGet() + (refresh ? "-fresh" : ""))
                .build()) { // not started: the push calls need no connection
            gateway.pushAnswers.add(InboxAnswer.problem(401, "unauthenticated", "token refused: token_expired", null));
            PushRegistration created = client.registerPush(PushAddress.apns("ab".repeat(32), "com.example.app",
                    PushAddress.ApnsEnvironment.PRODUCTION)).join();
            assertEquals(FakeGateway.PUSH_ID, created.id());
            InboxRequest refused = gateway.nextPush(WAIT);
            InboxRequest post = gateway.nextPush(WAIT);
            assertEquals("POST /v1/push/registrations Bearer t1", refused.method() + " " + refused.path() + " " + refused.authorization());
            assertEquals("POST /v1/push/registrations Bearer t2-fresh application/json",
                    post.method() + " " + post.path() + " " + post.authorization() + " " + post.contentType());
            assertEquals(NotifyJson.mapper().readTree("{\"apns\":{\"token\":\"" + "ab".repeat(32) + "\",\"topic\":\"com.example.app\","
                    + "\"environment\":\"production\"}}"), NotifyJson.mapper().readTree(post.body()));

            gateway.pushAnswers.add(InboxAnswer.json(200, "{\"registrations\":[{\"id\":\"" + FakeGateway.PUSH_ID
                    + "\",\"provider\":\"apns\",\"createdAt\":1764410100000,\"topic\":\"com.example.app\",\"environment\":\"production\"}]}"));
            List<PushRegistration> listed = client.listPushRegistrations().join();
            assertEquals(List.of(FakeGateway.PUSH_ID), listed.stream().map(PushRegistration::id).toList());
            assertEquals(Optional.of(PushAddress.ApnsEnvironment.PRODUCTION), listed.get(0).environment());
            InboxRequest list = gateway.nextPush(WAIT);
            assertEquals("GET /v1/push/registrations Bearer t2-fresh", list.method() + " " + list.path() + " " + list.authorization());

            assertNull(client.unregisterPush(created.id()).join()); // 204, no body
            InboxRequest delete = gateway.nextPush(WAIT);
            assertEquals("DELETE /v1/push/registrations/" + FakeGateway.PUSH_ID + " Bearer t2-fresh",
                    delete.method() + " " + delete.path() + " " + delete.authorization());
            assertEquals("", delete.body());

            gateway.pushAnswers.add(InboxAnswer.problem(404, "not-found", "no push registration for this user", null));
            NotifyClientException missing = (NotifyClientException) assertThrows(CompletionException.class,
                    () -> client.unregisterPush(created.id()).join()).getCause();
            assertEquals(NotifyClientException.Kind.PUSH, missing.kind());
            assertEquals(OptionalInt.of(404), missing.httpStatus());
            assertEquals(Optional.of("urn:notify:problem:not-found"), missing.problemType());

            assertEquals(new PushConfig(Optional.empty()), client.pushConfig().join());
            gateway.pushAnswers.add(InboxAnswer.json(200, "{\"webpush\":{\"applicationServerKey\":\"BKey\"}}"));
            assertEquals(new PushConfig(Optional.of("BKey")), client.pushConfig().join());
            assertEquals(2, calls.get(), "one fresh token, kept");
        }
    }
}
