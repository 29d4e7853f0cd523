package io.notify.cli.replay;

/**
 * A strict RFC 8259 check that a byte string is exactly one JSON value in valid UTF-8, in one pass
 * and without allocating: the fast path of {@link ValueScan} when no field is wanted (plain JSONL
 * replays), where building a parser per record costs more than the check itself. Nesting deeper
 * than {@link #MAX_DEPTH} is refused, as {@code NotifyJson} refuses it. Also reports whether the
 * whitespace holds CR or LF, which a JSON Lines record must not.
 */
final class JsonCheck {

    static final int MAX_DEPTH = 64;

    /** Result: not one JSON value. */
    static final int INVALID = 0;
    /** Result: one JSON value on one line. */
    static final int ONE_LINE = 1;
    /** Result: one JSON value whose whitespace holds CR or LF. */
    static final int MULTI_LINE = 2;

    private final byte[] b;
    private int i;
    private boolean lineBreak;

    private JsonCheck(byte[] bytes) {
        this.b = bytes;
    }

    static int check(byte[] bytes) {
        JsonCheck c = new JsonCheck(bytes);
        try {
            c.ws();
            c.value(0);
            c.ws();
            if (c.i != bytes.length) {
                return INVALID;
            }
        } catch (IllegalStateException | ArrayIndexOutOfBoundsException e) {
            return INVALID;
        }
        return c.lineBreak ? MULTI_LINE : ONE_LINE;
    }

    private static IllegalStateException bad() {
        return new IllegalStateException("not JSON"); // cheap: only thrown for values that are not JSON
    }

    private void ws() {
        while (i < b.length) {
            byte c = b[i];
            if (c == ' ' || c == '\t') {
                i++;
            } else if (c == '\n' || c == '\r') {
                lineBreak = true;
                i++;
            } else {
                return;
            }
        }
    }

    private void value(int depth) {
        if (depth > MAX_DEPTH) {
            throw bad();
        }
        switch (b[i]) {
            case '{' -> object(depth + 1);
            case '[' -> array(depth + 1);
            case '"' -> string();
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> number();
        }
    }

    private void object(int depth) {
        i++;
        ws();
        if (b[i] == '}') {
            i++;
            return;
        }
        while (true) {
            if (b[i] != '"') {
                throw bad();
            }
            string();
            ws();
            if (b[i++] != ':') {
                throw bad();
            }
            ws();
            value(depth);
            ws();
            byte c = b[i++];
            if (c == '}') {
                return;
            }
            if (c != ',') {
                throw bad();
            }
            ws();
        }
    }

    private void array(int depth) {
        i++;
        ws();
        if (b[i] == ']') {
            i++;
            return;
        }
        while (true) {
            value(depth);
            ws();
            byte c = b[i++];
            if (c == ']') {
                return;
            }
            if (c != ',') {
                throw bad();
            }
            ws();
        }
    }

    private void string() {
        byte[] b = this.b;
        int j = i + 1;
        while (true) {
            byte c = b[j];
            if (c >= 0x20 && c != '"' && c != '\\') {
                j++; // printable ASCII: the common case, kept tight
            } else if (c == '"') {
                i = j + 1;
                return;
            } else if (c == '\\') {
                i = j;
                escape();
                j = i;
            } else if (c < 0) {
                i = j;
                utf8(c & 0xff);
                j = i;
            } else {
                throw bad(); // a raw control character
            }
        }
    }

    private void escape() {
        byte e = b[i + 1];
        if (e == 'u') {
            for (int k = 2; k < 6; k++) {
                if (Character.digit(b[i + k], 16) < 0) {
                    throw bad();
                }
            }
            i += 6;
        } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
            i += 2;
        } else {
            throw bad();
        }
    }

    /** One multi-byte UTF-8 sequence, rejecting overlong forms, surrogates and code points past U+10FFFF. */
    private void utf8(int c) {
        int n;
        int min;
        if (c >= 0xc2 && c <= 0xdf) {
            n = 1;
            min = 0x80;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 2;
            min = 0x800;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 3;
            min = 0x10000;
        } else {
            throw bad();
        }
        int cp = c & (0x3f >> n);
        for (int k = 1; k <= n; k++) {
            int cont = b[i + k] & 0xff;
            if ((cont & 0xc0) != 0x80) {
                throw bad();
            }
            cp = (cp << 6) | (cont & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            throw bad();
        }
        i += n + 1;
    }

    private void literal(String word) {
        for (int k = 0; k < word.length(); k++) {
            if (b[i + k] != word.charAt(k)) {
                throw bad();
            }
        }
        i += word.length();
    }

    private void number() {
        if (b[i] == '-') {
            i++;
        }
        if (b[i] == '0') {
            i++;
        } else {
            digits();
        }
        if (i < b.length && b[i] == '.') {
            i++;
            digits();
        }
        if (i < b.length && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (b[i] == '+' || b[i] == '-') {
                i++;
            }
            digits();
        }
    }

    private void digits() {
        int start = i;
        while (i < b.length && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        if (i == start) {
            throw bad();
        }
    }
}
