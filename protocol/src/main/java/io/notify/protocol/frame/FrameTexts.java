package io.notify.protocol.frame;

import io.notify.protocol.text.Clip;

/** Keeps error messages bounded when they quote untrusted input. */
final class FrameTexts {

    private FrameTexts() {
    }

    static String clip(String s) {
        return Clip.clip(s);
    }

    static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
