package io.notify.cli.bench.gateway;

import io.notify.cli.bench.LatencySummary;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/** Latency histograms on one text line (compressed, base64), so the parent can merge the agents' exactly. */
final class AgentHistograms {

    private AgentHistograms() {
    }

    static String encode(Histogram h) {
        ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(b);
        byte[] bytes = new byte[n];
        b.flip();
        b.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    static Histogram decode(String base64) throws DataFormatException {
        return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 60_000_000L);
    }

    /** Adds {@code part} into {@code into} (a {@link LatencySummary#newHistogram()}). */
    static void add(Histogram into, String base64) throws DataFormatException {
        into.add(decode(base64));
    }
}
