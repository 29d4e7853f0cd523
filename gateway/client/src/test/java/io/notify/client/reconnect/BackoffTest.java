package io.notify.client.reconnect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private static final Duration BASE = Duration.ofSeconds(1);
    private static final Duration CAP = Duration.ofSeconds(60);
    private static final int SAMPLES = 20_000;

    @Test
    void atSaturationDelaysSpanTheWholeWindowFromZeroToTheCapUniformly() {
        Backoff backoff = new Backoff(BASE, CAP, new SplittableRandom(42));
        while (backoff.ceiling().compareTo(CAP) < 0) {
            backoff.nextDelay();
        }
        long cap = CAP.toMillis();
        long min = Long.MAX_VALUE;
        long max = 0;
        double sum = 0;
        int[] deciles = new int[10];
        for (int i = 0; i < SAMPLES; i++) {
            long d = backoff.nextDelay().toMillis();
            assertTrue(d >= 0 && d <= cap, "delay " + d + " outside [0, " + cap + "]");
            min = Math.min(min, d);
            max = Math.max(max, d);
            sum += d;
            deciles[(int) Math.min(9, d * 10 / cap)]++;
        }
        double mean = sum / SAMPLES;
        System.out.printf("BackoffTest: %d delays at cap %d ms: min %d, max %d, mean %.0f (cap/2 = %d), deciles %s%n",
                SAMPLES, cap, min, max, mean, cap / 2, java.util.Arrays.toString(deciles));
        // full jitter: some clients retry almost at once, some wait almost the whole cap
        assertTrue(min < cap / 100, "min " + min + " should be near 0 (under 1% of the cap)");
        assertTrue(max > cap * 99 / 100, "max " + max + " should be near the cap (over 99% of it)");
        // uniform: mean cap/2 (standard error ≈ cap/sqrt(12·n) ≈ 0.2% of the cap; allow 2%)
        assertEquals(cap / 2.0, mean, cap * 0.02, "mean of a uniform [0, cap]");
        for (int i = 0; i < deciles.length; i++) {
            assertTrue(deciles[i] > SAMPLES * 0.085 && deciles[i] < SAMPLES * 0.115,
                    "decile " + i + " holds " + deciles[i] + " of " + SAMPLES + ": not uniform");
        }
    }

    @Test
    void theCeilingDoublesPerAttemptUpToTheCapAndEachDelayStaysUnderIt() {
        List<Long> ceilings = new ArrayList<>();
        Backoff backoff = new Backoff(BASE, CAP, new SplittableRandom(7));
        for (int i = 0; i < 9; i++) {
            ceilings.add(backoff.ceiling().toMillis());
            backoff.nextDelay();
        }
        assertEquals(List.of(1_000L, 2_000L, 4_000L, 8_000L, 16_000L, 32_000L, 60_000L, 60_000L, 60_000L), ceilings);

        // per attempt n, many independent clients: delays fill [0, base·2^n] and never exceed it
        for (int n = 0; n < 7; n++) {
            long ceiling = Math.min(CAP.toMillis(), BASE.toMillis() << n);
            SplittableRandom random = new SplittableRandom(100 + n);
            long max = 0;
            long min = Long.MAX_VALUE;
            for (int client = 0; client < 2_000; client++) {
                Backoff b = new Backoff(BASE, CAP, random);
                for (int i = 0; i < n; i++) {
                    b.nextDelay();
                }
                long d = b.nextDelay().toMillis();
                assertTrue(d <= ceiling, "attempt " + n + ": " + d + " > " + ceiling);
                max = Math.max(max, d);
                min = Math.min(min, d);
            }
            assertTrue(max > ceiling * 95 / 100, "attempt " + n + ": max " + max + " of ceiling " + ceiling);
            assertTrue(min < ceiling * 5 / 100 + 1, "attempt " + n + ": min " + min + " of ceiling " + ceiling);
        }
    }

    @Test
    void onlyResetBringsTheCeilingBackAndPromptJitterLeavesTheCounterAlone() {
        Backoff backoff = new Backoff(BASE, CAP, new SplittableRandom(1));
        backoff.nextDelay();
        backoff.nextDelay();
        backoff.nextDelay();
        assertEquals(3, backoff.attempt());
        assertEquals(Duration.ofSeconds(8), backoff.ceiling());
        for (int i = 0; i < 100; i++) {
            assertTrue(backoff.jitter(Duration.ofSeconds(1)).toMillis() <= 1_000);
        }
        assertEquals(3, backoff.attempt(), "a prompt reconnect's jitter is not an attempt");
        assertEquals(Duration.ofSeconds(8), backoff.ceiling());
        backoff.reset();
        assertEquals(0, backoff.attempt());
        assertEquals(BASE, backoff.ceiling());
    }

    @Test
    void theStatelessDelayFollowsTheDefaultCeilings() {
        Backoff defaults = Backoff.defaults(new SplittableRandom(5));
        for (int attempt = 0; attempt < 10; attempt++) {
            long ceiling = defaults.ceiling().toMillis();
            assertEquals(0, Backoff.delayMillis(attempt, 0.0));
            assertEquals(ceiling, Backoff.delayMillis(attempt, Math.nextDown(1.0)), "attempt " + attempt);
            defaults.nextDelay();
        }
        assertEquals(60_000, Backoff.delayMillis(1_000, Math.nextDown(1.0)), "stays at the cap");
    }

    @Test
    void hugeAttemptCountsStayAtTheCapWithoutOverflow() {
        Backoff backoff = new Backoff(Duration.ofMillis(3), Duration.ofDays(1), new SplittableRandom(3));
        for (int i = 0; i < 500; i++) {
            long d = backoff.nextDelay().toMillis();
            assertTrue(d >= 0 && d <= Duration.ofDays(1).toMillis());
        }
        assertEquals(Duration.ofDays(1), backoff.ceiling());
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(Duration.ZERO, CAP, new SplittableRandom()));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(CAP, BASE, new SplittableRandom()));
    }
}
