package io.notify.push.webpush;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VapidKeysTest {

    // A throwaway key made for this test: openssl ecparam -name prime256v1 -genkey | openssl pkcs8 -topk8 -nocrypt
    private static final String OPENSSL_PEM = """
            -----BEGIN PRIVATE KEY-----
            MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgyVS0MPgh9WWpFUy6
            Dnx9pIwgouqBKXOH1DCkO2adMcahRANCAAToEPBfP9ZMjS21uTkuLduwB/ThGz3B
            +P3xTcmwqN997DBVizWVYciqKyjpTYgVb5jrucyRHDjN9eOztFvxWH32
            -----END PRIVATE KEY-----
            """;
    // openssl ec -pubout -conv_form uncompressed, as base64url.
    private static final String OPENSSL_PUBLIC = "BOgQ8F8_1kyNLbW5OS4t27AH9OEbPcH4_fFNybCo333sMFWLNZVhyKorKOlNiBVvmOu5zJEcOM3147O0W_FYffY";

    @Test
    void generatesAP256PairWhosePublicKeyIs65Bytes() {
        VapidKeys keys = VapidKeys.generate();

        assertEquals(65, keys.publicKeyBytes().length);
        assertEquals(87, keys.publicKeyBase64Url().length());
        assertArrayEquals(P256.encode(keys.publicKey()), keys.publicKeyBytes());
        assertFalse(keys.toString().contains(keys.privateKeyBase64Url()), "toString never shows the private key");
    }

    @Test
    void loadsAnOpensslPkcs8PemAndDerivesItsPublicKey(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("vapid.pem");
        Files.writeString(file, OPENSSL_PEM);

        assertEquals(OPENSSL_PUBLIC, VapidKeys.fromPem(file).publicKeyBase64Url());
    }

    @Test
    void roundTripsThroughPemAndBase64Url() {
        VapidKeys keys = VapidKeys.generate();

        VapidKeys fromPem = VapidKeys.fromPem(keys.toPkcs8Pem());
        VapidKeys fromRaw = VapidKeys.fromBase64Url(keys.privateKeyBase64Url(), keys.publicKeyBase64Url());

        assertEquals(keys.publicKeyBase64Url(), fromPem.publicKeyBase64Url());
        assertEquals(keys.privateKeyBase64Url(), fromPem.privateKeyBase64Url());
        assertEquals(keys.publicKeyBase64Url(), fromRaw.publicKeyBase64Url());
    }

    @Test
    void refusesAPublicKeyOfAnotherPrivateKey() {
        VapidKeys one = VapidKeys.generate();
        VapidKeys other = VapidKeys.generate();

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> VapidKeys.fromBase64Url(one.privateKeyBase64Url(), other.publicKeyBase64Url()));
        assertEquals("the VAPID public key does not belong to the private key", e.getMessage());
    }

    @Test
    void explainsWhatPemItTakes() {
        IllegalArgumentException sec1 = assertThrows(IllegalArgumentException.class,
                () -> VapidKeys.fromPem("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n"));
        assertTrue(sec1.getMessage().contains("openssl pkcs8 -topk8 -nocrypt"), sec1.getMessage());
        assertThrows(IllegalArgumentException.class, () -> VapidKeys.fromPem("not a pem"));
        assertThrows(IllegalArgumentException.class,
                () -> VapidKeys.fromPem("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"));
        assertThrows(IllegalArgumentException.class, () -> VapidKeys.fromBase64Url("%%%", OPENSSL_PUBLIC));
    }
}
