package io.notify.protocol.event;

import io.notify.protocol.text.IdChars;
import java.security.SecureRandom;
import java.util.UUID;
import java.util.regex.Pattern;

/** Event id rules and generation of ids for events that arrive without one. */
public final class EventIds {

    public static final Pattern ID = Pattern.compile("^[A-Za-z0-9._:-]{1,128}$");
    private static final SecureRandom RANDOM = new SecureRandom();

    private EventIds() {
    }

    /**
     * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds then random bits, so generated ids sort
     * roughly by creation time, which keeps analyst output and dedup stores friendly.
     */
    public static String generate() {
        long millis = System.currentTimeMillis();
        long randA = RANDOM.nextInt(1 << 12);
        long msb = (millis << 16) | 0x7000L | randA;
        long lsb = (RANDOM.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb).toString();
    }

    public static boolean isValid(String id) {
        return IdChars.matches(id, 1, 128, "._:-", false);
    }
}
