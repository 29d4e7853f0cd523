package io.notify.devstack;

import java.security.SecureRandom;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Issues test prefixes such as {@code "tq3x9k2m-"}: a letter, seven lowercase letters or digits, a
 * dash. Valid in Kafka topic names, consumer group ids, transactional ids and Redis keys.
 *
 * <p>Guarantees: no prefix is issued twice in one JVM; across JVMs collisions are improbable
 * (36^7 values) and harmless, since every JVM has its own broker and Redis by default.
 */
final class Prefixes {

    private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
    private static final int RANDOM_CHARS = 7;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Set<String> ISSUED = ConcurrentHashMap.newKeySet();

    private Prefixes() {
    }

    static String next() {
        while (true) {
            StringBuilder prefix = new StringBuilder("t");
            for (int i = 0; i < RANDOM_CHARS; i++) {
                prefix.append(ALPHABET[RANDOM.nextInt(ALPHABET.length)]);
            }
            String candidate = prefix.append('-').toString();
            if (ISSUED.add(candidate)) {
                return candidate;
            }
        }
    }
}
