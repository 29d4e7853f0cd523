package io.notify.push.fcm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.NotifyJson;
import io.notify.push.fake.FcmFake;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceAccountTest {

    private static FcmFake fake;

    @BeforeAll
    static void start() {
        fake = FcmFake.start();
    }

    @AfterAll
    static void stop() {
        fake.close();
    }

    private static ObjectNode json() throws Exception {
        return (ObjectNode) NotifyJson.mapper().readTree(fake.serviceAccountJson());
    }

    private static String error(String json) {
        return assertThrows(IllegalArgumentException.class, () -> ServiceAccount.parse(json)).getMessage();
    }

    @Test
    void readsTheFieldsTheSenderUses() throws Exception {
        ServiceAccount account = ServiceAccount.parse(fake.serviceAccountJson());

        assertEquals(fake.projectId(), account.projectId());
        assertEquals(json().get("private_key_id").asText(), account.privateKeyId());
        assertEquals(json().get("client_email").asText(), account.clientEmail());
        assertEquals(fake.baseUrl().resolve("/token"), account.tokenUri());
        assertEquals(2048, account.privateKey().getModulus().bitLength());
        assertFalse(account.toString().contains("PRIVATE"), account.toString());
    }

    @Test
    void loadsFromAFileOrFromText(@TempDir Path dir) throws Exception {
        Path file = fake.writeServiceAccount(dir);
        assertEquals(ServiceAccount.load(fake.serviceAccountJson()).projectId(), ServiceAccount.load(file.toString()).projectId());

        String missing = assertThrows(IllegalArgumentException.class, () -> ServiceAccount.load(dir.resolve("nope.json").toString()))
                .getMessage();
        assertTrue(missing.startsWith("fcm.service-account: cannot read"), missing);
    }

    @Test
    void namesWhatIsWrong() throws Exception {
        assertTrue(error(json().put("type", "authorized_user").toString()).contains("type must be 'service_account'"));
        ObjectNode noEmail = json();
        noEmail.remove("client_email");
        assertEquals("service account: client_email is required (a string)", error(noEmail.toString()));
        assertTrue(error(json().put("private_key", "MIIE...").toString()).contains("private_key must be a PEM"));
        assertTrue(error(json().put("token_uri", "/token").toString()).contains("token_uri must be an absolute"));
        assertTrue(error(json().put("project_id", "a/b").toString()).contains("project_id"));
    }

    @Test
    void neverQuotesTheKeyWhenTheJsonIsBroken() throws Exception {
        String broken = fake.serviceAccountJson().replace("\"type\"", "type");
        String message = error(broken);
        assertTrue(message.startsWith("service account: not JSON"), message);
        assertFalse(message.contains("PRIVATE KEY"), message);
    }

    @Test
    void settingsHaveDefaultsAndCheckTheirValues() {
        FcmSettings settings = new FcmSettings("/etc/notify/fcm.json");
        assertEquals("https://fcm.googleapis.com", settings.baseUrl().toString());
        assertEquals(FcmSettings.DEFAULT_REQUEST_TIMEOUT, settings.requestTimeout());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new FcmSettings(" "))
                .getMessage().startsWith("fcm.service-account"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new FcmSettings("x.json", java.net.URI.create("https://fcm.googleapis.com/v1"), null))
                .getMessage().startsWith("fcm.base-url"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new FcmSettings("x.json", null, java.time.Duration.ZERO))
                .getMessage().startsWith("fcm.request-timeout"));
        assertFalse(new FcmSettings(fake.serviceAccountJson()).toString().contains("PRIVATE"));
    }
}
