package io.notify.cli.bench;

import java.util.List;

/**
 * Turns the samples taken while fanout-streams routes a pre-produced backlog into the reported
 * numbers. Pure arithmetic, so it is unit-tested.
 *
 * <ul>
 *   <li>Routed events/s is measured between the first sample that shows progress and the first
 *       sample with every event routed: start-up and the first rebalance are not counted, and the
 *       events routed before the first progress sample are subtracted rather than guessed. The
 *       steady rate covers only the second half of the backlog (JIT and caches warm).</li>
 *   <li>Redis numbers per routed event are given for the whole run (from the sample taken when the
 *       app became ready, so cold misses count) and for the steady state (the second half of the
 *       backlog, when every active user has been looked up at least once).</li>
 * </ul>
 */
record RoutingWindow(double eventsPerSecond, double seconds, double steadyEventsPerSecond,
                     double readsPerEvent, double steadyReadsPerEvent,
                     double commandsPerEvent, double steadyCommandsPerEvent) {

    /**
     * One poll of the app and Redis.
     *
     * @param routed     events with an outcome: DeliveryMessages + UndeliveredEvents (one recipient each)
     * @param redisReads the router's Redis reads by its own meter (each one or two round trips)
     * @param redisCommands the router's read commands counted by Redis (ZRANGE + MGET)
     */
    record Sample(long nanos, double routed, double redisReads, long redisCommands) {
    }

    /**
     * @param samples in time order; the first is taken when the app is ready, the last has
     *                {@code routed >= events}
     */
    static RoutingWindow of(List<Sample> samples, long events) {
        if (samples.size() < 2) {
            throw new IllegalArgumentException("need a ready sample and a final sample, got " + samples.size());
        }
        Sample ready = samples.get(0);
        Sample end = samples.get(samples.size() - 1);
        if (end.routed() < events) {
            throw new IllegalArgumentException("the last sample has " + end.routed() + " of " + events + " routed");
        }
        Sample first = samples.stream().filter(s -> s.routed() > ready.routed()).findFirst().orElseThrow();
        Sample mid = samples.stream().filter(s -> s.routed() >= events / 2.0).findFirst().orElseThrow();
        // All done within one poll: the best bound left is the time since ready.
        Sample from = first == end ? ready : first;
        double seconds = (end.nanos() - from.nanos()) / 1e9;
        double rate = seconds <= 0 ? 0 : (end.routed() - from.routed()) / seconds;
        double total = end.routed() - ready.routed();
        double steady = end.routed() - mid.routed();
        double steadySeconds = (end.nanos() - mid.nanos()) / 1e9;
        return new RoutingWindow(rate, seconds, steadySeconds <= 0 ? rate : steady / steadySeconds,
                per(end.redisReads() - ready.redisReads(), total),
                per(end.redisReads() - mid.redisReads(), steady),
                per(end.redisCommands() - ready.redisCommands(), total),
                per(end.redisCommands() - mid.redisCommands(), steady));
    }

    private static double per(double amount, double events) {
        return events <= 0 ? 0 : amount / events;
    }
}
