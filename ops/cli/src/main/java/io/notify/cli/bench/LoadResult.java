package io.notify.cli.bench;

/** One measured run: events acknowledged, failures, elapsed time, and acknowledgement latency. */
public record LoadResult(String name, long events, long failures, double seconds, LatencySummary latency) {

    public double eventsPerSecond() {
        return seconds <= 0 ? 0 : events / seconds;
    }
}
