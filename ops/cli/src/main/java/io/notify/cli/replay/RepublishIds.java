package io.notify.cli.replay;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * New event ids for events written back into {@code notify.events}, derived deterministically
 * from the old ones so fan-out's dedup (which drops a repeated id) does not swallow them, while a
 * re-run of the same backfill produces the same ids and is deduplicated as a retry would be.
 *
 * <ul>
 *   <li>{@code <oldId>.r<round>} for an envelope republished whole (from the DLQ);</li>
 *   <li>{@code <oldId>.r<round>.<12 hex>} for an event taken from one stream (stream-log,
 *       undelivered), the hex being the start of SHA-256 of the stream id, since one old id was
 *       fanned out to many streams and each copy needs an id of its own;</li>
 *   <li>{@code r<round>-<64 hex>} (SHA-256 of old id and stream) when the forms above would pass
 *       the 128-character limit of event ids.</li>
 * </ul>
 * {@code round} (≥ 1, {@code --republish-round}) lets a deliberate second backfill of the same
 * events get fresh ids. All forms match the event id rule {@code [A-Za-z0-9._:-]{1,128}}.
 */
final class RepublishIds {

    static final int MAX_ID = 128;

    private RepublishIds() {
    }

    /** The new id; {@code stream} is null for an envelope republished whole. */
    static String derive(String oldId, String stream, int round) {
        if (round < 1) {
            throw new IllegalArgumentException("round must be >= 1, got " + round);
        }
        String suffix = ".r" + round + (stream == null ? "" : "." + sha256(stream).substring(0, 12));
        if (oldId.length() + suffix.length() <= MAX_ID) {
            return oldId + suffix;
        }
        return "r" + round + "-" + sha256(oldId + "\n" + (stream == null ? "" : stream));
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
