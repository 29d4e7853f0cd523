package io.notify.cli.bench.gateway;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One phase of a load agent: its clients, pacing, deadline, retry bound, and the tallies that
 * become its {@link PhaseReport}. Single-threaded (the agent's selector thread).
 */
final class AgentPhase {

    static final String OPEN = "open";
    static final String STORM = "storm";

    private static int lastId;

    final int id = ++lastId;
    final String kind;
    final List<ClientConn> members;
    final ArrayDeque<ClientConn> toStart;
    final double ratePerSecond;
    final int maxPending;
    final long startNanos;
    final long deadlineNanos;
    final int maxAttempts;
    private final long[] doneMicros;
    private final long[] resumeMicros;
    private final long[] welcomeMicros;
    private final Map<String, Long> failures = new TreeMap<>();
    private int done;
    private int gaveUp;
    private int started;
    private long rejected;
    private long dropped;

    AgentPhase(String kind, List<ClientConn> members, double ratePerSecond, int maxPending, long startNanos,
               long deadlineNanos, int maxAttempts) {
        this.kind = kind;
        this.members = members;
        this.toStart = new ArrayDeque<>(members);
        this.ratePerSecond = ratePerSecond;
        this.maxPending = maxPending;
        this.startNanos = startNanos;
        this.deadlineNanos = deadlineNanos;
        this.maxAttempts = maxAttempts;
        this.doneMicros = new long[members.size()];
        this.resumeMicros = new long[members.size()];
        this.welcomeMicros = new long[members.size()];
        for (ClientConn c : members) {
            c.done = false;
            c.attempts = 0;
            c.phaseId = id;
        }
    }

    /** How many paced first attempts are due by {@code now} (rate × elapsed, minus those started). */
    int dueStarts(long now, int attemptsInFlight) {
        if (toStart.isEmpty()) {
            return 0;
        }
        long allowed = ratePerSecond <= 0 ? Long.MAX_VALUE : (long) ((now - startNanos) / 1e9 * ratePerSecond) + 1;
        long byRate = Math.max(0, allowed - started);
        long byPending = Math.max(0, maxPending - attemptsInFlight);
        return (int) Math.min(toStart.size(), Math.min(byRate, byPending));
    }

    ClientConn nextStart(long now) {
        ClientConn c = toStart.poll();
        started++;
        c.phaseStartNanos = now;
        return c;
    }

    void markDone(ClientConn c, long now) {
        if (c.done) {
            return;
        }
        c.done = true;
        c.doneNanos = now;
        doneMicros[done] = Math.max(0, (now - startNanos) / 1000);
        resumeMicros[done] = Math.max(0, (now - c.phaseStartNanos) / 1000);
        welcomeMicros[done] = Math.max(0, (c.welcomeNanos - c.phaseStartNanos) / 1000);
        done++;
    }

    void failed(String reason, int status) {
        failures.merge(reason, 1L, Long::sum);
        if (status == 503) {
            rejected++;
        }
    }

    void gaveUp() {
        gaveUp++;
    }

    void dropped() {
        dropped++;
    }

    int done() {
        return done;
    }

    long failedSoFar() {
        return failures.values().stream().mapToLong(Long::longValue).sum();
    }

    long rejected() {
        return rejected;
    }

    boolean settled(long now) {
        return done + gaveUp >= members.size() || now - deadlineNanos > 0;
    }

    PhaseReport report() {
        long attempts = 0;
        long received = 0;
        long duplicates = 0;
        long lost = 0;
        long outOfOrder = 0;
        long beyond = 0;
        long otherEpoch = 0;
        long resets = 0;
        for (ClientConn c : members) {
            ResumeTally t = c.tally;
            attempts += c.attempts;
            received += t.received();
            duplicates += t.duplicates();
            lost += kind.equals(STORM) ? t.lost() : 0;
            outOfOrder += t.outOfOrder();
            beyond += t.beyond();
            otherEpoch += t.otherEpoch();
            resets += t.resets();
        }
        return new PhaseReport(kind, members.size(), done, attempts, rejected, failures,
                Arrays.copyOf(doneMicros, done), Arrays.copyOf(resumeMicros, done),
                Arrays.copyOf(welcomeMicros, done), received, duplicates, lost,
                outOfOrder, beyond, otherEpoch, resets, dropped);
    }
}
