package io.notify.push.webpush;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.notify.push.fake.WebPushDecryptor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class Aes128GcmEncryptorTest {

    // RFC 8291 Appendix A, verbatim.
    private static final String PLAINTEXT = "When I grow up, I want to be a watermelon";
    private static final String AS_PUBLIC = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
    private static final String AS_PRIVATE = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
    private static final String UA_PUBLIC = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
    private static final String UA_PRIVATE = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94";
    private static final String AUTH_SECRET = "BTBZMqHH6r4Tts7J_aSIgg";
    private static final String SALT = "DGv6ra1nlYgDCS1FRnbzlw";
    private static final String BODY = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8"
            + "wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN";

    @Test
    void encryptsTheRfc8291Example() {
        KeyPair as = new KeyPair(P256.publicKey(b64(AS_PUBLIC)), P256.privateKey(b64(AS_PRIVATE)));
        Aes128GcmEncryptor encryptor = new Aes128GcmEncryptor(() -> as, () -> b64(SALT));

        byte[] body = encryptor.encrypt(PLAINTEXT.getBytes(StandardCharsets.UTF_8), b64(UA_PUBLIC), b64(AUTH_SECRET));

        assertEquals(BODY, Base64.getUrlEncoder().withoutPadding().encodeToString(body));
    }

    @Test
    void theRfcBodyDecryptsWithTheUserAgentKey() throws Exception {
        byte[] plaintext = WebPushDecryptor.decrypt(b64(BODY), P256.privateKey(b64(UA_PRIVATE)), b64(UA_PUBLIC), b64(AUTH_SECRET));

        assertEquals(PLAINTEXT, new String(plaintext, StandardCharsets.UTF_8));
    }

    @Test
    void convertsTheRfcKeysBothWays() {
        assertArrayEquals(b64(AS_PUBLIC), P256.encode(P256.publicKey(b64(AS_PUBLIC))));
        assertArrayEquals(b64(UA_PRIVATE), P256.encode(P256.privateKey(b64(UA_PRIVATE))));
        assertArrayEquals(b64(UA_PUBLIC), P256.encode(P256.publicKeyOf(P256.privateKey(b64(UA_PRIVATE)))));
        assertArrayEquals(b64(AS_PUBLIC), P256.encode(P256.publicKeyOf(P256.privateKey(b64(AS_PRIVATE)))));
    }

    @Test
    void roundTripsWithAFreshKeyAndSaltPerMessage() throws Exception {
        KeyPair ua = P256.generate();
        byte[] uaPublic = P256.encode((ECPublicKey) ua.getPublic());
        byte[] auth = new byte[16];
        Arrays.fill(auth, (byte) 7);
        byte[] plaintext = "{\"event\":\"ev_1\"}".getBytes(StandardCharsets.UTF_8);
        Aes128GcmEncryptor encryptor = new Aes128GcmEncryptor();

        byte[] first = encryptor.encrypt(plaintext, uaPublic, auth);
        byte[] second = encryptor.encrypt(plaintext, uaPublic, auth);

        assertArrayEquals(plaintext, WebPushDecryptor.decrypt(first, (ECPrivateKey) ua.getPrivate(), uaPublic, auth));
        assertArrayEquals(plaintext, WebPushDecryptor.decrypt(second, (ECPrivateKey) ua.getPrivate(), uaPublic, auth));
        assertFalse(Arrays.equals(Arrays.copyOf(first, 16), Arrays.copyOf(second, 16)), "a fresh salt per message");
        assertFalse(Arrays.equals(Arrays.copyOfRange(first, 21, 86), Arrays.copyOfRange(second, 21, 86)), "a fresh key per message");
    }

    @Test
    void writesTheHeaderLayoutOfRfc8188() {
        KeyPair as = P256.generate();
        byte[] salt = new byte[16];
        Arrays.fill(salt, (byte) 0x5a);
        Aes128GcmEncryptor encryptor = new Aes128GcmEncryptor(() -> as, () -> salt.clone());
        byte[] plaintext = new byte[100];

        byte[] body = encryptor.encrypt(plaintext, P256.encode((ECPublicKey) P256.generate().getPublic()), new byte[16]);

        ByteBuffer header = ByteBuffer.wrap(body);
        byte[] gotSalt = new byte[16];
        header.get(gotSalt);
        assertArrayEquals(salt, gotSalt);
        assertEquals(4096, header.getInt());
        assertEquals(65, header.get());
        assertArrayEquals(P256.encode((ECPublicKey) as.getPublic()), Arrays.copyOfRange(body, 21, 86));
        assertEquals(86 + 100 + 1 + 16, body.length, "header, plaintext, delimiter, tag");
    }

    @Test
    void theLargestPlaintextFillsExactlyOneRecordOf4096Bytes() {
        byte[] uaPublic = P256.encode((ECPublicKey) P256.generate().getPublic());
        Aes128GcmEncryptor encryptor = new Aes128GcmEncryptor();

        assertEquals(4096, encryptor.encrypt(new byte[Aes128GcmEncryptor.MAX_PLAINTEXT], uaPublic, new byte[16]).length);
        assertEquals(3993, Aes128GcmEncryptor.MAX_PLAINTEXT);
        assertThrows(IllegalArgumentException.class,
                () -> encryptor.encrypt(new byte[Aes128GcmEncryptor.MAX_PLAINTEXT + 1], uaPublic, new byte[16]));
    }

    @Test
    void refusesAKeyThatIsNotOnTheCurve() {
        byte[] notOnCurve = b64(UA_PUBLIC);
        notOnCurve[64] ^= 1;

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Aes128GcmEncryptor().encrypt(new byte[1], notOnCurve, new byte[16]));
        assertEquals("the public key is not a point on P-256", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Aes128GcmEncryptor().encrypt(new byte[1], b64(UA_PUBLIC), new byte[15]));
    }

    private static byte[] b64(String s) {
        return Base64.getUrlDecoder().decode(s);
    }
}
