package io.notify.protocol.stream;

import io.notify.protocol.text.Clip;

/** Keeps error messages bounded when they quote untrusted input. */
final class Texts {

    private Texts() {
    }

    static String clip(String s) {
        return Clip.clip(s);
    }
}
