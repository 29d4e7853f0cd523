package io.notify.cli.chaos;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Stretches without any delivery to any device (longer than {@link #MIN_PAUSE_NANOS}), kept to
 * answer "how long did deliveries stop after the fault, and when did they come back". Bounded:
 * the oldest pauses go first. Thread-safe.
 */
final class DeliveryPauses {

    /** A pause in deliveries, in System.nanoTime terms; {@code end} is the first delivery after it. */
    record Pause(long start, long end) {
        long nanos() {
            return end - start;
        }
    }

    /**
     * After a fault: the longest pause that ended after it, when it ended (ms after the fault), and
     * the longest an event delivered after it had waited since its publish ({@code maxLatencyMs}: a
     * stall of some partitions while others deliver shows here, not as a pause; 0 when none waited
     * {@link #SLOW_MICROS} or more).
     */
    record AfterFault(long maxPauseMs, long recoveredAfterMs, long maxLatencyMs) {
    }

    /** A delivery that waited at least this long is kept for {@link AfterFault#maxLatencyMs}. */
    static final long SLOW_MICROS = 200_000;

    static final long MIN_PAUSE_NANOS = 200_000_000L;
    private static final int MAX_KEPT = 10_000;

    private final Deque<Pause> pauses = new ArrayDeque<>();
    private final Deque<long[]> slow = new ArrayDeque<>(); // (delivered at, nanos; latency, micros)
    private long last;

    /** A delivery at {@code nowNanos} of an event published {@code latencyMicros} before (-1: unknown). */
    synchronized void delivered(long nowNanos, long latencyMicros) {
        if (latencyMicros >= SLOW_MICROS) {
            if (slow.size() == MAX_KEPT) {
                slow.removeFirst();
            }
            slow.addLast(new long[] {nowNanos, latencyMicros});
        }
        delivered(nowNanos);
    }

    synchronized void delivered(long nowNanos) {
        if (last != 0 && nowNanos - last > MIN_PAUSE_NANOS) {
            if (pauses.size() == MAX_KEPT) {
                pauses.removeFirst();
            }
            pauses.addLast(new Pause(last, nowNanos));
        }
        last = Math.max(last, nowNanos);
    }

    /**
     * The longest pause that ended after {@code faultNanos} (counted from the later of its start and
     * the fault), and when deliveries resumed after it; zeros when deliveries never stopped.
     */
    synchronized AfterFault after(long faultNanos, long nowNanos) {
        long longest = 0;
        long recovered = 0;
        for (Pause p : pauses) {
            if (p.end() - faultNanos <= 0) {
                continue;
            }
            long from = Math.max(p.start(), faultNanos);
            if (p.end() - from > longest) {
                longest = p.end() - from;
                recovered = p.end() - faultNanos;
            }
        }
        long maxLatencyMicros = 0;
        for (long[] d : slow) {
            if (d[0] - faultNanos > 0) {
                maxLatencyMicros = Math.max(maxLatencyMicros, d[1]);
            }
        }
        if (last != 0 && nowNanos - Math.max(last, faultNanos) > Math.max(longest, MIN_PAUSE_NANOS)) {
            return new AfterFault((nowNanos - Math.max(last, faultNanos)) / 1_000_000, -1, maxLatencyMicros / 1000); // still paused
        }
        return new AfterFault(longest / 1_000_000, recovered / 1_000_000, maxLatencyMicros / 1000);
    }
}
