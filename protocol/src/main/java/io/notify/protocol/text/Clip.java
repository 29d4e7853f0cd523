package io.notify.protocol.text;

/** Keeps error messages bounded when they quote untrusted input. */
public final class Clip {

    public static final int MAX_QUOTED = 80;

    private Clip() {
    }

    /** {@code s} as is if short, else its first {@value #MAX_QUOTED} chars and its length; "null" for null. */
    public static String clip(String s) {
        if (s == null) {
            return "null";
        }
        return s.length() <= MAX_QUOTED ? s : s.substring(0, MAX_QUOTED) + "…(" + s.length() + " chars)";
    }
}
