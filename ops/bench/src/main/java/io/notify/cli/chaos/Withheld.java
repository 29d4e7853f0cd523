package io.notify.cli.chaos;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The events a chaos run publishes that may rightly never reach a device (docs/protocol.md §3.6 and
 * "Recall"): ones given a short {@code ttl}, which a device disconnected by a fault may only learn of
 * as a {@code collapsed} seq with reason {@code expired}, and ones the producer recalls a moment after
 * its acknowledgment, which a device gets and then sees recalled, or learns of as a {@code collapsed}
 * seq with reason {@code recalled}. The {@link Verifier} counts them as neither lost nor expected:
 * such an event may arrive or not, but never twice, out of order, or (recalled) after its recall.
 */
final class Withheld {

    private Withheld() {
    }

    /** What the producer does with an event besides publishing it. */
    enum Fate {
        /** Published with the run's short {@code ttl}. */
        EXPIRING,
        /** Recalled by the producer {@link Shares#recallAfter} after its acknowledgment. */
        RECALLED
    }

    /**
     * Which events the steady producer withholds: every {@code expireEvery}-th with {@code ttl}, every
     * {@code recallEvery}-th recalled {@code recallAfter} after its acknowledgment (0: none; an event
     * that is both is recalled).
     */
    record Shares(int expireEvery, Duration ttl, int recallEvery, Duration recallAfter) {

        /** Every 20th event with a 2 s ttl, every 25th recalled 300 ms after its acknowledgment. */
        static final Shares DEFAULT = new Shares(20, Duration.ofSeconds(2), 25, Duration.ofMillis(300));
        /** Every event expected everywhere. */
        static final Shares NONE = new Shares(0, Duration.ofSeconds(2), 0, Duration.ofMillis(300));

        Shares {
            if (expireEvery < 0 || recallEvery < 0) {
                throw new IllegalArgumentException("--expire-every and --recall-every must be >= 0");
            }
            if (ttl.toSeconds() < 1 || ttl.toMillis() % 1000 != 0 || ttl.compareTo(Duration.ofDays(30)) > 0) {
                throw new IllegalArgumentException("--expire-ttl must be whole seconds, 1s to 30d (an envelope's ttl), got " + ttl);
            }
            if (recallAfter.isNegative()) {
                throw new IllegalArgumentException("--recall-after must not be negative, got " + recallAfter);
            }
        }

        /** The fate of the producer's {@code n}-th event (1-based); null: an ordinary one. */
        Fate fateOf(long n) {
            if (recallEvery > 0 && n % recallEvery == 0) {
                return Fate.RECALLED;
            }
            if (expireEvery > 0 && n % expireEvery == 0) {
                return Fate.EXPIRING;
            }
            return null;
        }

        /** The {@code ttl} as an envelope takes it: whole seconds ({@code "2s"}). */
        String ttlText() {
            return ttl.toSeconds() + "s";
        }

        /** The agent's arguments that carry these shares ({@link #fromArgs}). */
        List<String> args() {
            return List.of("expireEvery=" + expireEvery, "ttlMs=" + ttl.toMillis(), "recallEvery=" + recallEvery,
                    "recallAfterMs=" + recallAfter.toMillis());
        }

        static Shares fromArgs(Map<String, String> a) {
            return new Shares(Integer.parseInt(a.getOrDefault("expireEvery", "0")),
                    Duration.ofMillis(Long.parseLong(a.getOrDefault("ttlMs", "2000"))),
                    Integer.parseInt(a.getOrDefault("recallEvery", "0")),
                    Duration.ofMillis(Long.parseLong(a.getOrDefault("recallAfterMs", "300"))));
        }
    }

    /**
     * The window's events published with a ttl: {@code sent} acknowledged, {@code due} the deliveries
     * they were addressed to, of which {@code arrived} reached the device (before expiry, or the gateway
     * would have sent the seq collapsed) and {@code notArrived} did not; {@code late}: arrivals whose
     * callback ran after the event's {@code expiresAt} by this machine's clock (told, not judged: the
     * gateway checks at send time, transit and the client's queue come after).
     */
    record Expiry(long sent, long due, long arrived, long notArrived, long late) {
    }

    /**
     * The window's recalled events: {@code events} of them acknowledged, {@code sent} recall records
     * acknowledged, {@code frames} {@code recalled} frames the devices got (the event had reached them)
     * and {@code collapsed} seqs they learnt of as {@code collapsed} with reason {@code recalled}
     * (while catching up); {@code arrivedBefore} deliveries of their content (before the recall);
     * {@code afterRecall} contents that came after the device had been told of the recall and
     * {@code unexpected} recalled frames for events never recalled: both fail the run.
     */
    record Recalls(long events, long sent, long frames, long collapsed, long arrivedBefore, long afterRecall,
                   long unexpected) {
    }
}
