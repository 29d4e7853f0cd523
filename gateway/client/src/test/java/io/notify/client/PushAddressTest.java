package io.notify.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The shape checks of {@link PushAddress}: what the client refuses before anything is sent. */
class PushAddressTest {

    private static final String HEX = "0123456789abcdef".repeat(4);

    @Test
    void fcmTokensAreTheProvidersCharacters() {
        assertEquals(PushProvider.FCM, PushAddress.fcm("a:B_c-1.2").provider());
        for (String bad : new String[] {null, "", "has space", "ü", "x".repeat(4097)}) {
            assertThrows(IllegalArgumentException.class, () -> PushAddress.fcm(bad), String.valueOf(bad));
        }
        assertFalse(PushAddress.fcm("secret-token-value").toString().contains("token-value"), "a token stays out of logs");
    }

    @Test
    void apnsTokensAreHexKeptInLowerCaseWithABundleIdAndAnEnvironment() {
        PushAddress.Apns a = PushAddress.apns(HEX.toUpperCase(), "com.example.app.voip", PushAddress.ApnsEnvironment.PRODUCTION);
        assertEquals(HEX, a.token());
        assertEquals("production", a.environment().wireName());
        assertEquals(PushAddress.ApnsEnvironment.SANDBOX, PushAddress.ApnsEnvironment.fromWire("sandbox"));
        assertThrows(IllegalArgumentException.class, () -> PushAddress.ApnsEnvironment.fromWire("Sandbox"));
        assertThrows(IllegalArgumentException.class, () -> PushAddress.apns(HEX.substring(2), "com.example", PushAddress.ApnsEnvironment.SANDBOX));
        assertThrows(IllegalArgumentException.class, () -> PushAddress.apns(HEX + "zz", "com.example", PushAddress.ApnsEnvironment.SANDBOX));
        assertThrows(IllegalArgumentException.class, () -> PushAddress.apns(HEX, ".starts.with.dot", PushAddress.ApnsEnvironment.SANDBOX));
        assertThrows(NullPointerException.class, () -> PushAddress.apns(HEX, "com.example", null));
        assertFalse(a.toString().contains(HEX), "a token stays out of logs");
    }

    @Test
    void webPushEndpointsAreHttpUrlsWithAHostAndTheKeysBase64url() {
        PushAddress.WebPush w = PushAddress.webPush("https://updates.push.services.mozilla.com/wpush/v2/gAAA", "BPk3_-", "AbC=");
        assertEquals(PushProvider.WEBPUSH, w.provider());
        PushAddress.webPush("http://127.0.0.1:9/push/1", "B", "A"); // a local push service: the gateway decides (dev only)
        for (String bad : new String[] {null, "", "ftp://push.example/x", "/relative", "https://", "not a url", "https://x/" + "a".repeat(2048)}) {
            assertThrows(IllegalArgumentException.class, () -> PushAddress.webPush(bad, "B", "A"), String.valueOf(bad));
        }
        assertThrows(IllegalArgumentException.class, () -> PushAddress.webPush("https://push.example/1", "not+base64url", "A"));
        assertThrows(IllegalArgumentException.class, () -> PushAddress.webPush("https://push.example/1", "B", null));
        assertThrows(IllegalArgumentException.class, () -> new PushAddress.WebPush("https://push.example/1", -1L, "B", "A"));
        assertFalse(w.toString().contains("BPk3"), "keys stay out of logs");
    }

    @Test
    void providersHaveTheirWireNames() {
        for (PushProvider p : PushProvider.values()) {
            assertEquals(p, PushProvider.fromWire(p.wireName()));
        }
        assertEquals("webpush", PushProvider.WEBPUSH.wireName());
        assertThrows(IllegalArgumentException.class, () -> PushProvider.fromWire("sms"));
    }
}
