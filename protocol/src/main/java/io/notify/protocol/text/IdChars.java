package io.notify.protocol.text;

/**
 * The identifier rules of the wire contract ({@code [A-Za-z0-9]} plus a few punctuation marks,
 * bounded length) checked with a loop over the characters instead of a regular expression. Every
 * record of every internal hop re-checks its ids in its constructor, and on the fan-out's hot path
 * {@code java.util.regex} was about a tenth of the CPU (a profile of fanout-streams in issue 11; docs/BENCHMARKS.md "Fast path").
 * Each caller keeps its {@code Pattern} constant as the documented rule; IdCharsTest checks that
 * both agree. A char is checked against two 64-bit masks (the alphabet plus the caller's {@code extra}),
 * not a chain of ranges and an {@code indexOf}: ids are checked several times per event at every hop.
 */
public final class IdChars {

    /** '0'-'9' (48-57) among chars 0-63. */
    private static final long DIGITS = 0x03FFL << 48;
    /** 'A'-'Z' (65-90) and 'a'-'z' (97-122) among chars 64-127. */
    private static final long LETTERS = 0x07FF_FFFEL | 0x07FF_FFFEL << 32;

    private IdChars() {
    }

    /**
     * Whether {@code s} is {@code min..max} characters, each an ASCII letter or digit or one of
     * {@code extra}; {@code firstAlnum} also requires the first to be a letter or digit.
     */
    public static boolean matches(String s, int min, int max, String extra, boolean firstAlnum) {
        return matchesFrom(s, 0, min, max, extra, firstAlnum);
    }

    /** {@link #matches} on the part of {@code s} from index {@code from} on (no copy). */
    public static boolean matchesFrom(String s, int from, int min, int max, String extra, boolean firstAlnum) {
        if (s == null || s.length() < from) {
            return false;
        }
        int n = s.length() - from;
        if (n < min || n > max) {
            return false;
        }
        // One bit per ASCII char: chars 0-63 in lo, 64-127 in hi (a shift by c uses c's low six bits).
        long lo = DIGITS;
        long hi = LETTERS;
        for (int k = 0; k < extra.length(); k++) {
            char e = extra.charAt(k);
            if (e < 64) {
                lo |= 1L << e;
            } else if (e < 128) {
                hi |= 1L << e;
            }
        }
        for (int i = 0; i < n; i++) {
            char c = s.charAt(from + i);
            long bits = c < 64 ? lo : c < 128 ? hi : 0;
            if ((bits >>> c & 1) == 0 || i == 0 && firstAlnum && !alnum(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean alnum(char c) {
        return c < 64 ? (DIGITS >>> c & 1) != 0 : c < 128 && (LETTERS >>> c & 1) != 0;
    }
}
