package io.notify.ingest.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks {@code Authorization: Bearer <key>} against the configured producer keys. Keys are
 * compared as SHA-256 digests with {@link MessageDigest#isEqual}, and every configured key is
 * compared on every call, so timing reveals neither a key's content nor its length nor which
 * entry matched.
 */
public final class ApiKeyAuthenticator {

    private record Entry(String producer, byte[] digest) {
    }

    private final List<Entry> entries = new ArrayList<>();

    public ApiKeyAuthenticator(Map<String, String> keysByProducer) {
        keysByProducer.forEach((producer, key) -> entries.add(new Entry(producer, sha256(key))));
    }

    /** The producer name that owns the presented key, or empty when the header is absent or wrong. */
    public Optional<String> authenticate(String authorizationHeader) {
        if (authorizationHeader == null || authorizationHeader.length() < 8
                || !authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        byte[] presented = sha256(authorizationHeader.substring(7).trim());
        String match = null;
        for (Entry e : entries) {
            if (MessageDigest.isEqual(e.digest, presented) && match == null) {
                match = e.producer;
            }
        }
        return Optional.ofNullable(match);
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JRE", e);
        }
    }
}
