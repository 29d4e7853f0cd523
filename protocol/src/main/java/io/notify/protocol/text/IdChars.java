package io.notify.protocol.text;

/**
 * The identifier rules of the wire contract ({@code [A-Za-z0-9]} plus a few punctuation marks,
 * bounded length) checked with a loop over the characters instead of a regular expression. Every
 * record of every internal hop re-checks its ids in its constructor, and on the fan-out's hot path
 * {@code java.util.regex} was about a tenth of the CPU (a profile of fanout-streams in issue 11; docs/BENCHMARKS.md "Fast path").
 * Each caller keeps its {@code Pattern} constant as the documented rule; IdCharsTest checks that
 * both agree.
 */
public final class IdChars {

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
        for (int i = 0; i < n; i++) {
            char c = s.charAt(from + i);
            boolean alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!alnum && (i == 0 && firstAlnum || extra.indexOf(c) < 0)) {
                return false;
            }
        }
        return true;
    }
}
