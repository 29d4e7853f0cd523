package io.notify.common.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.devstack.TestCertificate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerTlsTest {

    @TempDir
    Path dir;

    @Test
    void bothFilesOrNeitherAndTheReloadIntervalIsBounded() {
        assertEquals(Optional.empty(), TlsSettings.load(Settings.of(Map.of()), "notify.ingest"));
        TlsSettings s = TlsSettings.load(Settings.of(Map.of("notify.ingest.tls.cert-file", "/c.pem",
                "notify.ingest.tls.key-file", "/k.pem")), "notify.ingest").orElseThrow();
        assertEquals(new TlsSettings(Path.of("/c.pem"), Path.of("/k.pem"), Duration.ofMinutes(1), "notify.ingest"), s);
        ConfigException noKey = assertThrows(ConfigException.class, () -> TlsSettings.load(
                Settings.of(Map.of("notify.ingest.tls.cert-file", "/c.pem")), "notify.ingest"));
        assertTrue(noKey.getMessage().startsWith("notify.ingest.tls.key-file:"), noKey.getMessage());
        ConfigException noCert = assertThrows(ConfigException.class, () -> TlsSettings.load(
                Settings.of(Map.of("notify.gateway.tls.key-file", "/k.pem")), "notify.gateway"));
        assertTrue(noCert.getMessage().startsWith("notify.gateway.tls.cert-file:"), noCert.getMessage());
        ConfigException tooOften = assertThrows(ConfigException.class, () -> TlsSettings.load(
                Settings.of(Map.of("notify.ingest.tls.reload-interval", "10ms")), "notify.ingest"));
        assertTrue(tooOften.getMessage().startsWith("notify.ingest.tls.reload-interval:"), tooOften.getMessage());
    }

    @Test
    void aPairThatCannotBeUsedAtStartIsAConfigErrorNamingTheCertificateSetting() throws Exception {
        TestCertificate a = TestCertificate.selfSigned(dir.resolve("a"));
        TestCertificate b = TestCertificate.selfSigned(dir.resolve("b"));
        ConfigException mismatch = assertThrows(ConfigException.class, () -> start(a.certificate(), b.privateKey()));
        assertTrue(mismatch.getMessage().startsWith("notify.test.tls.cert-file:") && mismatch.getMessage().contains("does not belong"),
                mismatch.getMessage());
        Path rsa = dir.resolve("rsa.pem");
        Files.writeString(rsa, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
        ConfigException pkcs1 = assertThrows(ConfigException.class, () -> start(a.certificate(), rsa));
        assertTrue(pkcs1.getMessage().contains("openssl pkcs8 -topk8 -nocrypt"), pkcs1.getMessage());
        assertThrows(ConfigException.class, () -> start(dir.resolve("missing.pem"), a.privateKey()));
    }

    @Test
    void aChangedPairIsLoadedAndABrokenOneRefusedKeepingThePrevious() throws Exception {
        TestCertificate first = TestCertificate.selfSigned(dir.resolve("first"), "first");
        TestCertificate second = TestCertificate.selfSigned(dir.resolve("second"), "second");
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        first.installAt(cert, key);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (ServerTls tls = ServerTls.startOrNull(Optional.of(new TlsSettings(cert, key, Duration.ofDays(1), "notify.test")), meters)) {
            assertEquals(first.x509(), tls.certificate());
            tls.check();
            assertEquals(0, reloads(meters, "ok") + reloads(meters, "failed"), "nothing changed");

            Files.copy(second.privateKey(), key, java.nio.file.StandardCopyOption.REPLACE_EXISTING); // the key alone: mid-rotation
            tls.check();
            assertEquals(first.x509(), tls.certificate(), "a key that is not the certificate's is refused");
            assertEquals(1, reloads(meters, "failed"));
            tls.check();
            assertEquals(1, reloads(meters, "failed"), "tried once per change");

            Files.copy(second.certificate(), cert, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            tls.check();
            assertEquals(second.x509(), tls.certificate());
            assertEquals(1, reloads(meters, "ok"));
            assertEquals(second.x509().getNotAfter().getTime() / 1000.0,
                    meters.get("notify.tls.certificate.expiry").gauge().value());
        }
    }

    private static double reloads(SimpleMeterRegistry meters, String result) {
        return meters.get("notify.tls.reloads").tag("result", result).counter().count();
    }

    private static ServerTls start(Path cert, Path key) {
        return ServerTls.startOrNull(Optional.of(new TlsSettings(cert, key, Duration.ofDays(1), "notify.test")), new SimpleMeterRegistry());
    }
}
