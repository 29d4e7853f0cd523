package io.notify.ingest.idempotency;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.JsonGeneratorDelegate;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventEnvelope;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 of an event in canonical form: defaults applied (by binding to {@link EventEnvelope}),
 * object keys of {@code data} sorted at every depth, numbers in plain form without trailing zeros,
 * timestamps as the envelope writes them. Two requests that mean the same event get the same digest
 * even if their JSON differs in key order, whitespace, {@code 1} against {@code 1.0}, or an explicit
 * default. The envelope is written once, by Jackson, straight into the digest (no tree, no text).
 */
public final class EventDigest {

    /** The envelope's own fields have a fixed order; maps and {@code data}'s objects are sorted. */
    private static final ObjectWriter CANONICAL = NotifyJson.mapper().writer()
            .with(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .with(JsonNodeFeature.WRITE_PROPERTIES_SORTED);

    private EventDigest() {
    }

    public static byte[] of(EventEnvelope event) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JRE", e);
        }
        try (JsonGenerator out = new PlainNumbers(CANONICAL.createGenerator(new DigestSink(md)))) {
            CANONICAL.writeValue(out, event);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot digest event " + event.id(), e);
        }
        return md.digest();
    }

    /** Feeds written bytes to the digest. */
    private static final class DigestSink extends OutputStream {
        private final MessageDigest md;

        DigestSink(MessageDigest md) {
            this.md = md;
        }

        @Override
        public void write(int b) {
            md.update((byte) b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            md.update(b, off, len);
        }
    }

    /** Writes every number as its plain decimal without trailing zeros: 1, 1.0 and 1e0 are the same number to a JSON reader. */
    private static final class PlainNumbers extends JsonGeneratorDelegate {
        PlainNumbers(JsonGenerator d) {
            super(d, false);
        }

        @Override
        public void writeNumber(double v) throws IOException {
            writeNumber(BigDecimal.valueOf(v));
        }

        @Override
        public void writeNumber(float v) throws IOException {
            writeNumber(BigDecimal.valueOf(v));
        }

        @Override
        public void writeNumber(BigInteger v) throws IOException {
            writeNumber(new BigDecimal(v));
        }

        @Override
        public void writeNumber(BigDecimal v) throws IOException {
            delegate.writeNumber(v.stripTrailingZeros().toPlainString());
        }
    }
}
