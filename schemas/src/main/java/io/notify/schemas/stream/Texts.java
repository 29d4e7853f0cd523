package io.notify.schemas.stream;

/** Keeps error messages bounded when they quote untrusted input. */
final class Texts {

    static final int MAX_QUOTED = 80;

    private Texts() {
    }

    static String clip(String s) {
        if (s == null) {
            return "null";
        }
        return s.length() <= MAX_QUOTED ? s : s.substring(0, MAX_QUOTED) + "…(" + s.length() + " chars)";
    }
}
