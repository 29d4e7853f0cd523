package io.notify.common.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks {@code Authorization: Bearer <key>} against a set of named keys: ingest's producer API
 * keys, the query API's service tokens. Keys are compared as SHA-256 digests with {@link
 * MessageDigest#isEqual}, and every configured key is compared on every call, so timing reveals
 * neither a key's content nor its length nor which entry matched. {@link #toString} names the
 * entries, never a key.
 */
public final class BearerKeys {

    /** The shortest key or token any Notify service accepts in its configuration. */
    public static final int MIN_KEY_LENGTH = 16;

    private record Entry(String name, byte[] digest) {
    }

    private final List<Entry> entries = new ArrayList<>();

    /** Keys by name; the name is what {@link #authenticate} answers (a producer, a token's position). */
    public BearerKeys(Map<String, String> keysByName) {
        keysByName.forEach((name, key) -> entries.add(new Entry(name, sha256(key))));
    }

    /** Service tokens named by their position, {@code "1"}, {@code "2"}, … in configuration order. */
    public static BearerKeys numbered(List<ServiceToken> tokens) {
        Map<String, String> byPosition = new LinkedHashMap<>();
        for (int i = 0; i < tokens.size(); i++) {
            byPosition.put(Integer.toString(i + 1), tokens.get(i).value());
        }
        return new BearerKeys(byPosition);
    }

    /** The name of the presented key, or empty when the header is absent, not a bearer credential, or wrong. */
    public Optional<String> authenticate(String authorizationHeader) {
        if (authorizationHeader == null || authorizationHeader.length() < 8
                || !authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        byte[] presented = sha256(authorizationHeader.substring(7).trim());
        String match = null;
        for (Entry e : entries) {
            if (MessageDigest.isEqual(e.digest, presented) && match == null) {
                match = e.name;
            }
        }
        return Optional.ofNullable(match);
    }

    /** The entries' names, in configuration order. */
    public List<String> names() {
        return entries.stream().map(Entry::name).toList();
    }

    @Override
    public String toString() {
        return "BearerKeys" + names();
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JRE", e);
        }
    }
}
