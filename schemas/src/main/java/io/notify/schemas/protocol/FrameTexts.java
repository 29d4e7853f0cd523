package io.notify.schemas.protocol;

/** Keeps error messages bounded when they quote untrusted input. */
public final class FrameTexts {

    private FrameTexts() {
    }

    public static String clip(String s) {
        if (s == null) {
            return "null";
        }
        return s.length() <= 80 ? s : s.substring(0, 80) + "…(" + s.length() + " chars)";
    }

    static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
