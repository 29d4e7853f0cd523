package io.notify.cli.replay;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A reusable byte buffer for one output line, so each record costs one write to the stream
 * instead of a dozen small ones. Grows as needed; {@link #reset} keeps the capacity.
 */
final class LineBuffer {

    private byte[] buf = new byte[1024];
    private int len;

    LineBuffer reset() {
        len = 0;
        return this;
    }

    int length() {
        return len;
    }

    /** Drops everything after the first {@code length} bytes. */
    LineBuffer truncate(int length) {
        len = Math.min(len, length);
        return this;
    }

    private void ensure(int extra) {
        if (len + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
        }
    }

    LineBuffer bytes(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
        return this;
    }

    /** Appends text that is known to need no JSON escaping (ASCII literals, numbers). */
    LineBuffer ascii(String s) {
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[len++] = (byte) s.charAt(i);
        }
        return this;
    }

    LineBuffer number(long n) {
        if (n < 0 || n > Integer.MAX_VALUE) {
            return ascii(Long.toString(n));
        }
        ensure(10);
        int v = (int) n;
        int digits = v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10_000 ? 4 : v < 100_000 ? 5 : v < 1_000_000 ? 6
                : v < 10_000_000 ? 7 : v < 100_000_000 ? 8 : v < 1_000_000_000 ? 9 : 10;
        for (int i = len + digits - 1; i >= len; i--) {
            int q = v / 10;
            buf[i] = (byte) ('0' + v - q * 10);
            v = q;
        }
        len += digits;
        return this;
    }

    /**
     * Appends UTF-8 bytes as a quoted JSON string. Printable ASCII without quote or backslash (every
     * Notify key) is copied as is; anything else goes through strict decoding and escaping.
     *
     * @return false, appending nothing, when the bytes are not valid UTF-8
     */
    boolean jsonStringOf(byte[] utf8) {
        boolean plain = true;
        for (int i = 0; i < utf8.length && plain; i++) {
            byte b = utf8[i];
            plain = b >= 0x20 && b < 0x7f && b != '"' && b != '\\';
        }
        if (plain) {
            ensure(utf8.length + 2);
            buf[len++] = '"';
            System.arraycopy(utf8, 0, buf, len, utf8.length);
            len += utf8.length;
            buf[len++] = '"';
            return true;
        }
        String text = Utf8Text.decode(utf8);
        if (text == null) {
            return false;
        }
        jsonString(text);
        return true;
    }

    /** Appends {@code s} as a quoted JSON string, or {@code null}. */
    LineBuffer jsonString(String s) {
        if (s == null) {
            return ascii("null");
        }
        ensure(1);
        buf[len++] = '"';
        bytes(JsonStringEncoder.getInstance().quoteAsUTF8(s));
        ensure(1);
        buf[len++] = '"';
        return this;
    }

    /** Appends {@code s} as UTF-8 without escaping (CSV and table lines). */
    LineBuffer text(String s) {
        return bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    byte[] toBytes() {
        return Arrays.copyOf(buf, len);
    }

    void writeTo(OutputStream out) throws IOException {
        out.write(buf, 0, len);
    }
}
