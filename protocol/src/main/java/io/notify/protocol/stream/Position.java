package io.notify.protocol.stream;

import io.notify.protocol.text.IdChars;
import java.security.SecureRandom;
import java.util.regex.Pattern;

/**
 * A place in one stream's history: {@code (epoch, seq)}. {@code seq} counts the stream's durable
 * events from 1 with no gaps inside one epoch; {@code epoch} names the incarnation of that history
 * and changes when the history is lost or reset, so positions of different epochs never compare.
 *
 * <p>Compact form {@code <epoch>:<seq>} (e.g. {@code k3x9m2p8q7rdw5ta:17}): ASCII letters, digits,
 * '_', '-' and one ':', so it is safe as an SSE {@code id:} field, in a {@code Last-Event-ID} header
 * and in a URL query. Epochs contain no ':', so the last ':' splits it unambiguously. The seq is
 * canonical decimal (no sign, no leading zero) so {@code parse(p.format()).equals(p)} and
 * {@code parse(s).format().equals(s)} both hold.
 *
 * <p>{@code seq} is capped at 2^53-1 so JavaScript clients read it exactly.
 */
public record Position(String epoch, long seq) {

    public static final Pattern EPOCH = Pattern.compile("^[A-Za-z0-9_-]{1,64}$");
    /** Number.MAX_SAFE_INTEGER: the largest seq a JavaScript client holds exactly. */
    public static final long MAX_SEQ = 9_007_199_254_740_991L;
    /** Longest compact form: 64-char epoch, ':', 16 digits. */
    public static final int MAX_FORMATTED_LENGTH = 64 + 1 + 16;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] EPOCH_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz".toCharArray();

    public Position {
        checkEpoch(epoch);
        checkSeq(seq);
    }

    public static Position of(String epoch, long seq) {
        return new Position(epoch, seq);
    }

    /** Parses the compact form {@code <epoch>:<seq>}; every error names what is wrong. */
    public static Position parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("position is empty; expected '<epoch>:<seq>'");
        }
        if (text.length() > MAX_FORMATTED_LENGTH) {
            throw new IllegalArgumentException("position is " + text.length() + " chars; at most "
                    + MAX_FORMATTED_LENGTH + " ('<epoch>:<seq>')");
        }
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("position '" + Texts.clip(text) + "' has no ':'; expected '<epoch>:<seq>'");
        }
        String digits = text.substring(colon + 1);
        if (digits.isEmpty() || digits.length() > 16 || digits.charAt(0) == '0' || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("position '" + Texts.clip(text)
                    + "': seq must be a decimal integer from 1 to " + MAX_SEQ + " without sign or leading zero");
        }
        return new Position(text.substring(0, colon), Long.parseLong(digits));
    }

    /** The compact form {@code <epoch>:<seq>}. */
    public String format() {
        return epoch + ':' + seq;
    }

    /** The position of the next event in the same epoch. */
    public Position next() {
        return new Position(epoch, seq + 1);
    }

    public boolean sameEpoch(Position other) {
        return epoch.equals(other.epoch);
    }

    /**
     * A fresh random epoch: 16 chars of [0-9a-z] (about 82 bits), so two incarnations of one
     * stream's history practically never share an epoch.
     */
    public static String newEpoch() {
        char[] out = new char[16];
        for (int i = 0; i < out.length; i++) {
            out[i] = EPOCH_ALPHABET[RANDOM.nextInt(EPOCH_ALPHABET.length)];
        }
        return new String(out);
    }

    static void checkEpoch(String epoch) {
        if (epoch == null) {
            throw new IllegalArgumentException("epoch is required");
        }
        if (!IdChars.matches(epoch, 1, 64, "_-", false)) {
            throw new IllegalArgumentException("epoch must be 1..64 chars of [A-Za-z0-9_-], got '" + Texts.clip(epoch) + "'");
        }
    }

    static void checkSeq(long seq) {
        if (seq < 1 || seq > MAX_SEQ) {
            throw new IllegalArgumentException("seq must be from 1 to " + MAX_SEQ + ", got " + seq);
        }
    }

    @Override
    public String toString() {
        return format();
    }
}
