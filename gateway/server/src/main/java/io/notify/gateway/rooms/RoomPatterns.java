package io.notify.gateway.rooms;

import io.notify.protocol.event.Recipients;
import io.notify.protocol.text.IdChars;
import java.util.List;

/**
 * A list of room-name patterns: the JWT claim {@code rooms} ("chat-*", "org-7.*") and the config's
 * public rooms. A pattern is 1..128 characters of the room-name alphabet ({@code [A-Za-z0-9._:-]})
 * and {@code *}, which matches any run of room-name characters, the empty one included; every other
 * character matches itself. So {@code chat-*} matches {@code chat-} and {@code chat-1} but not
 * {@code chat}; {@code org-7.*} matches {@code org-7.ops} but not {@code org-70.ops}; {@code *}
 * matches every room. Immutable; matching is linear in practice (one backtrack point, the last star).
 */
public final class RoomPatterns {

    /** Patterns a claim may carry: a token is a bearer credential, not a list of every room. */
    public static final int MAX_PATTERNS = 64;
    public static final int MAX_PATTERN_CHARS = 128;
    private static final RoomPatterns NONE = new RoomPatterns(List.of());

    private final List<String> patterns;

    private RoomPatterns(List<String> patterns) {
        this.patterns = patterns;
    }

    public static RoomPatterns none() {
        return NONE;
    }

    /** Parses patterns; throws IllegalArgumentException naming the first bad one. */
    public static RoomPatterns of(List<String> patterns) {
        if (patterns.size() > MAX_PATTERNS) {
            throw new IllegalArgumentException(patterns.size() + " room patterns; at most " + MAX_PATTERNS);
        }
        for (String p : patterns) {
            if (!isPattern(p)) {
                throw new IllegalArgumentException("room pattern must be 1.." + MAX_PATTERN_CHARS
                        + " chars of [A-Za-z0-9._:-] and '*', got '" + (p == null ? null : p.length() > 40 ? p.substring(0, 40) + "…" : p) + "'");
            }
        }
        return patterns.isEmpty() ? NONE : new RoomPatterns(List.copyOf(patterns));
    }

    public static boolean isPattern(String p) {
        return IdChars.matches(p, 1, MAX_PATTERN_CHARS, Recipients.ROOM_EXTRA + "*", false);
    }

    public List<String> patterns() {
        return patterns;
    }

    public boolean isEmpty() {
        return patterns.isEmpty();
    }

    /** Whether some pattern matches the room name {@code room}. */
    public boolean matches(String room) {
        for (String p : patterns) {
            if (glob(p, room)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Wildcard match: '*' takes any run, backtracking only to the last star seen; every other
     * character matches itself. Also the rule of the collapsed event types ({@code CollapseSettings}).
     */
    public static boolean glob(String pattern, String text) {
        int p = 0;
        int t = 0;
        int star = -1;
        int mark = 0;
        while (t < text.length()) {
            if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                mark = t;
            } else if (p < pattern.length() && pattern.charAt(p) == text.charAt(t)) {
                p++;
                t++;
            } else if (star >= 0) {
                p = star + 1;
                t = ++mark;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }

    @Override
    public String toString() {
        return String.join(",", patterns);
    }
}
