package io.notify.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTest {

    @Test
    void overridesWinOverEnvironmentWhichWinsOverDefaults() {
        Settings s = new Settings(Map.of("notify.a", "1"), Map.of("NOTIFY_A", "2", "NOTIFY_B_C", "3"));
        assertEquals(1, s.intIn("notify.a", 9, 0, 10));
        assertEquals(3, s.intIn("notify.b-c", 9, 0, 10));
        assertEquals(9, s.intIn("notify.d", 9, 0, 10));
    }

    @Test
    void errorsNameTheKey() {
        Settings s = Settings.of(Map.of("notify.port", "abc", "notify.big", "99", "notify.t", "5 minutes",
                "notify.flag", "maybe"));
        assertEquals("notify.port: expected an integer, got 'abc'",
                assertThrows(ConfigException.class, () -> s.intIn("notify.port", 1, 0, 65535)).getMessage());
        assertEquals("notify.big: must be in [0, 10], got 99",
                assertThrows(ConfigException.class, () -> s.intIn("notify.big", 1, 0, 10)).getMessage());
        assertTrue(assertThrows(ConfigException.class,
                () -> s.duration("notify.t", Duration.ZERO, Duration.ZERO, Duration.ofDays(1))).getMessage()
                .startsWith("notify.t: expected a duration"));
        assertTrue(assertThrows(ConfigException.class, () -> s.bool("notify.flag", true)).getMessage()
                .startsWith("notify.flag:"));
        assertTrue(assertThrows(ConfigException.class, () -> s.required("notify.missing")).getMessage()
                .contains("NOTIFY_MISSING"));
    }

    @Test
    void durationsListsAndBooleansParse() {
        Settings s = Settings.of(Map.of("d", "250ms", "h", "24h", "l", "a, b,,c", "b", "off", "p.x", "1", "p.y", "2"));
        assertEquals(Duration.ofMillis(250), s.duration("d", Duration.ZERO, Duration.ZERO, Duration.ofDays(9)));
        assertEquals(Duration.ofHours(24), s.duration("h", Duration.ZERO, Duration.ZERO, Duration.ofDays(9)));
        assertEquals(List.of("a", "b", "c"), s.list("l"));
        assertFalse(s.bool("b", true));
        assertEquals(Map.of("x", "1", "y", "2"), s.withPrefix("p."));
        assertThrows(ConfigException.class, () -> s.duration("h", Duration.ZERO, Duration.ZERO, Duration.ofHours(1)));
    }

    @Test
    void oneDurationSyntaxForSettingsAndFlags() {
        // `notifyctl token --ttl 1h30m` was refused while `replay --from -1h30m` was read
        assertEquals(Duration.ofMinutes(90), Settings.parseDurationArg("--ttl", "1h30m"));
        assertEquals(Duration.ofSeconds(150).plusMillis(5), Settings.parseDuration("k", "2m30s5ms"));
        assertEquals(Duration.ofDays(1).plusHours(1), Settings.parseDuration("k", " 1d1h "));
        assertEquals("--ttl: expected a duration like 250ms, 30s, 5m, 24h, 7d or 1h30m, got '1h 30m'",
                assertThrows(ConfigException.class, () -> Settings.parseDurationArg("--ttl", "1h 30m")).getMessage());
        assertThrows(ConfigException.class, () -> Settings.parseDuration("k", "-5m"));
        assertThrows(ConfigException.class, () -> Settings.parseDuration("k", "99999999999999999999d"));
    }

    @Test
    void commandLineArgumentsAreKeyValuePairs() {
        Settings s = Settings.fromArgs(new String[] {"--notify.x=5", "notify.y=6"});
        assertEquals("5", s.raw("notify.x"));
        assertEquals("6", s.raw("notify.y"));
        assertThrows(ConfigException.class, () -> Settings.fromArgs(new String[] {"oops"}));
    }

    @Test
    void secretsAreRefusedOnTheCommandLineAndNamedWithTheirEnvironmentVariable() {
        for (String arg : new String[] {"notify.ingest.api-keys=orders:0123456789abcdef", "notify.gateway.jwt.hmac-secret=HMAC-SECRET-VALUE",
                "notify.fanout.query.tokens=TOKEN-A,TOKEN-B", "notify.gateway.query-token=TOKEN-A",
                "notify.kafka.client.ssl.keystore.password=KEYSTORE-PASSWORD", "notify.kafka.client.sasl.jaas.config=JAAS-LINE",
                "notify.redis.uri=redis://:REDIS-PASSWORD@127.0.0.1:6379", "notify.redis.uri=redis://REDIS-PASSWORD@127.0.0.1:6379",
                "notify.kafka.client.ssl.keystore.key=PEM-PRIVATE-KEY", "notify.push.webpush.vapid-private-key=VAPID-D",
                "notify.push.apns.signing-key=P8-PEM", "notify.push.fcm.service-account=SERVICE-ACCOUNT-JSON"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> Settings.fromArgs(new String[] {arg}), arg);
            String key = arg.substring(0, arg.indexOf('='));
            assertTrue(e.getMessage().contains(Settings.envName(key)), e.getMessage());
            assertFalse(e.getMessage().contains(arg.substring(arg.indexOf('=') + 1)), "the message never shows the value");
        }
        // not secrets: a plain Redis URI, a key file's path, the node id
        Settings s = Settings.fromArgs(new String[] {"notify.redis.uri=redis://127.0.0.1:6379",
                "notify.gateway.jwt.jwks-file=/etc/notify/jwks.json", "notify.gateway.node-id=gw-1"});
        assertEquals("redis://127.0.0.1:6379", s.raw("notify.redis.uri"));
        // the environment still carries them
        assertEquals("orders:0123456789abcdef", new Settings(Map.of(), Map.of("NOTIFY_INGEST_API_KEYS", "orders:0123456789abcdef"))
                .raw("notify.ingest.api-keys"));
    }

    @Test
    void aListenerHearsEveryKeyWithItsKindDefaultAndBoundsAndTheValuesAreUnchanged() {
        List<SettingRead> heard = new java.util.ArrayList<>();
        Settings s = new Settings(Map.of("notify.port", "81", "notify.kafka.client.acks", "all"), Map.of(), heard::add);
        assertEquals(81, s.intIn("notify.port", 8081, 0, 65535));
        assertEquals(Duration.ofSeconds(90), s.duration("notify.wait", Duration.ofSeconds(90), Duration.ofMillis(250), Duration.ofDays(7)));
        assertEquals("x", s.string("notify.name", "x"));
        assertThrows(ConfigException.class, () -> s.required("notify.api-keys"));
        assertEquals(Map.of("acks", "all"), s.withPrefix("notify.kafka.client."));
        assertFalse(s.bool("notify.flag", false));
        assertEquals(List.of(), s.list("notify.origins"));
        assertEquals(5L, s.longIn("notify.rate", 5, 1, 10));
        assertEquals(null, s.raw("notify.ca-file"));
        assertEquals(List.of(
                new SettingRead("notify.port", SettingRead.Kind.INT, "8081", "0", "65535", false),
                new SettingRead("notify.wait", SettingRead.Kind.DURATION, "1m30s", "250ms", "7d", false),
                new SettingRead("notify.name", SettingRead.Kind.STRING, "x", null, null, false),
                new SettingRead("notify.api-keys", SettingRead.Kind.STRING, null, null, null, true),
                new SettingRead("notify.kafka.client.*", SettingRead.Kind.PREFIX, "", null, null, false),
                new SettingRead("notify.flag", SettingRead.Kind.BOOL, "false", null, null, false),
                new SettingRead("notify.origins", SettingRead.Kind.LIST, "", null, null, false),
                new SettingRead("notify.rate", SettingRead.Kind.LONG, "5", "1", "10", false),
                new SettingRead("notify.ca-file", SettingRead.Kind.STRING, "", null, null, false)), heard);
        assertTrue(heard.get(3).required());
    }

    @Test
    void durationsAreFormattedInTheSettingsSyntax() {
        assertEquals("0s", SettingRead.format(Duration.ZERO));
        assertEquals("1h30m", SettingRead.format(Duration.ofMinutes(90)));
        assertEquals("7d", SettingRead.format(Duration.ofDays(7)));
        assertEquals("2s500ms", SettingRead.format(Duration.ofMillis(2500)));
        for (String text : List.of("250ms", "1d2h3m4s5ms", "30s")) {
            assertEquals(text, SettingRead.format(Settings.parseDuration("k", text)), "round trip");
        }
    }
}
