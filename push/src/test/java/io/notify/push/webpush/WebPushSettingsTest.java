package io.notify.push.webpush;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class WebPushSettingsTest {

    private final VapidKeys keys = VapidKeys.generate();

    @Test
    void defaultsToTenSecondsAndSecureEndpoints() {
        WebPushSettings settings = new WebPushSettings("https://notify.example/contact", keys);

        assertEquals(Duration.ofSeconds(10), settings.requestTimeout());
        assertFalse(settings.allowInsecureEndpoints());
    }

    @Test
    void namesTheSettingThatIsWrong() {
        assertMessage("webpush.subject", () -> new WebPushSettings("ops@notify.example", keys));
        assertMessage("webpush.subject", () -> new WebPushSettings(null, keys));
        assertMessage("webpush.subject", () -> new WebPushSettings("mailto:", keys));
        assertMessage("webpush.keys", () -> new WebPushSettings("mailto:ops@notify.example", null));
        assertMessage("webpush.request-timeout", () -> new WebPushSettings("mailto:a@b", keys, Duration.ZERO, false));
        assertMessage("webpush.request-timeout", () -> new WebPushSettings("mailto:a@b", keys, Duration.ofMinutes(6), false));
        assertMessage("webpush.request-timeout", () -> new WebPushSettings("mailto:a@b", keys, null, false));
    }

    private static void assertMessage(String expected, Runnable build) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build::run);
        assertTrue(e.getMessage().startsWith(expected), e.getMessage());
    }
}
