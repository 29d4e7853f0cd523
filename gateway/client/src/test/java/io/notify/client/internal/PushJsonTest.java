package io.notify.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.notify.client.PushAddress;
import io.notify.client.PushConfig;
import io.notify.client.PushProvider;
import io.notify.client.PushRegistration;
import io.notify.protocol.NotifyJson;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The push API's JSON as the gateway takes and answers it (docs/push.md, "Registering a device"). */
class PushJsonTest {

    private static final String ID = "pr_AbCdEfGhIjKlMnOpQrStU1";

    private static void sameJson(String expected, String actual) throws Exception {
        assertEquals(NotifyJson.mapper().readTree(expected), NotifyJson.mapper().readTree(actual));
    }

    @Test
    void aBodyHasExactlyTheProvidersMember() throws Exception {
        sameJson("{\"fcm\":{\"token\":\"t:1\"}}", PushJson.body(PushAddress.fcm("t:1")));
        sameJson("{\"apns\":{\"token\":\"" + "ab".repeat(32) + "\",\"topic\":\"com.example\",\"environment\":\"production\"}}",
                PushJson.body(PushAddress.apns("AB".repeat(32), "com.example", PushAddress.ApnsEnvironment.PRODUCTION)));
        sameJson("{\"webpush\":{\"endpoint\":\"https://push.example/1\",\"expirationTime\":null,\"keys\":{\"p256dh\":\"B\",\"auth\":\"A\"}}}",
                PushJson.body(PushAddress.webPush("https://push.example/1", "B", "A")));
    }

    @Test
    void registrationsAreReadIgnoringFieldsTheSdkDoesNotUse() {
        List<PushRegistration> list = PushJson.registrations("""
                {"registrations":[
                  {"id":"pr_AbCdEfGhIjKlMnOpQrStU1","provider":"webpush","createdAt":1764410100000,"endpoint":"https://push.example/1","x":1},
                  {"id":"pr_0000000000000000000000","provider":"apns","createdAt":2,"topic":"com.example","environment":"production"},
                  {"id":"pr_1111111111111111111111","provider":"fcm","createdAt":3,"endpoint":null}],
                 "somethingNew":[]}
                """);
        assertEquals(new PushRegistration(ID, PushProvider.WEBPUSH, Instant.ofEpochMilli(1764410100000L),
                Optional.of("https://push.example/1"), Optional.empty(), Optional.empty()), list.get(0));
        assertEquals(new PushRegistration("pr_0000000000000000000000", PushProvider.APNS, Instant.ofEpochMilli(2), Optional.empty(),
                Optional.of("com.example"), Optional.of(PushAddress.ApnsEnvironment.PRODUCTION)), list.get(1));
        assertEquals(Optional.empty(), list.get(2).endpoint());
        assertEquals(List.of(), PushJson.registrations("{\"registrations\":[]}"));
    }

    @Test
    void theConfigNamesTheVapidKeyOrNothing() {
        assertEquals(new PushConfig(Optional.of("BKey")), PushJson.config("{\"webpush\":{\"applicationServerKey\":\"BKey\"}}"));
        assertEquals(new PushConfig(Optional.empty()), PushJson.config("{}"));
        assertEquals(new PushConfig(Optional.empty()), PushJson.config("{\"webpush\":{}}"));
    }

    @Test
    void unreadableAnswersAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> PushJson.registrations("{}"));
        assertThrows(IllegalArgumentException.class, () -> PushJson.registrations("[]"));
        assertThrows(IllegalArgumentException.class, () -> PushJson.registration("{\"id\":\"pr_x\",\"provider\":\"fcm\",\"createdAt\":1}"));
        assertThrows(IllegalArgumentException.class, () -> PushJson.registration("{\"id\":\"" + ID + "\",\"provider\":\"sms\",\"createdAt\":1}"));
        assertThrows(IllegalArgumentException.class, () -> PushJson.registration("{\"id\":\"" + ID + "\",\"provider\":\"fcm\"}"));
        assertThrows(IllegalArgumentException.class, () -> PushJson.registration("{\"id\":\"" + ID + "\",\"provider\":\"fcm\",\"createdAt\":1,"
                + "\"endpoint\":7}"));
        assertThrows(IllegalArgumentException.class, () -> PushJson.registration("{\"id\":\"" + ID + "\",\"provider\":\"apns\",\"createdAt\":1,"
                + "\"environment\":\"staging\"}"));
    }
}
