package io.notify.cli.bench;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** One measured run: events acknowledged, failures, elapsed time, and acknowledgement latency. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LoadResult(String name, long events, long failures, double seconds, LatencySummary latency) {

    public double eventsPerSecond() {
        return seconds <= 0 ? 0 : events / seconds;
    }
}
