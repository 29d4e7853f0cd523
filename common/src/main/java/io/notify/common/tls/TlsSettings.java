package io.notify.common.tls;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A service's TLS settings: {@code <prefix>.tls.cert-file} (PEM: the certificate, then any
 * intermediates), {@code <prefix>.tls.key-file} (PEM PKCS#8 {@code PRIVATE KEY}, unencrypted) and
 * {@code <prefix>.tls.reload-interval} (how often the two files' modification times are checked).
 * Both files or neither: with them, the service's listener and its management listener speak HTTPS
 * only; without them, both speak plain HTTP (TLS terminated in front, or a trusted network).
 *
 * @param certFile       the certificate chain file
 * @param keyFile        the private key file
 * @param reloadInterval how often the files are checked for a new pair
 * @param prefix         the settings prefix, e.g. {@code notify.ingest} (errors name its keys)
 */
public record TlsSettings(Path certFile, Path keyFile, Duration reloadInterval, String prefix) {

    public static final Duration DEFAULT_RELOAD_INTERVAL = Duration.ofMinutes(1);

    /** The TLS settings under {@code prefix} ({@code notify.gateway}), or empty when neither file is set. */
    public static Optional<TlsSettings> load(Settings s, String prefix) {
        String cert = s.raw(prefix + ".tls.cert-file");
        String key = s.raw(prefix + ".tls.key-file");
        Duration interval = s.duration(prefix + ".tls.reload-interval", DEFAULT_RELOAD_INTERVAL,
                Duration.ofMillis(100), Duration.ofDays(1));
        if (cert == null && key == null) {
            return Optional.empty();
        }
        if (cert == null) {
            throw new ConfigException(prefix + ".tls.cert-file", "is required with " + prefix + ".tls.key-file (both or neither)");
        }
        if (key == null) {
            throw new ConfigException(prefix + ".tls.key-file", "is required with " + prefix + ".tls.cert-file (both or neither)");
        }
        return Optional.of(new TlsSettings(Path.of(cert), Path.of(key), interval, prefix));
    }

    public String certKey() {
        return prefix + ".tls.cert-file";
    }

    public String keyKey() {
        return prefix + ".tls.key-file";
    }
}
