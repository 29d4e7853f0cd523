package io.notify.cli.replay;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Strict UTF-8 decoding of keys and raw values: a byte string that is not UTF-8 is shown as base64, never mangled. */
final class Utf8Text {

    private Utf8Text() {
    }

    /** The text, or null when {@code bytes} is null or not valid UTF-8. */
    static String decode(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        boolean ascii = true;
        for (int i = 0; i < bytes.length && ascii; i++) {
            ascii = bytes[i] >= 0;
        }
        if (ascii) {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** Text for a table or CSV cell: the UTF-8 text, or {@code base64:<...>} when the bytes are not UTF-8. */
    static String display(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        String text = decode(bytes);
        return text != null ? text : "base64:" + Base64.getEncoder().encodeToString(bytes);
    }
}
