package io.notify.cli.bench.push;

import io.notify.cli.bench.report.Stats;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the receiver got in one sender phase, against what was produced: the pure arithmetic of
 * {@code bench push}. A push is one (event, device); record {@code i} (event {@code <prefix><i in
 * base 36>}, due at {@code dueAt[i]}) is for user {@code i mod users}, whose devices are
 * {@code u * devicesPerUser ..} (the receiver numbers them in the order they subscribed).
 *
 * @param records            records produced (and acknowledged)
 * @param expected           pushes they ask for: records x devices per user
 * @param received           pushes accepted for an expected (event, device), repeats included
 * @param distinct           distinct (event, device) pairs received
 * @param duplicates         {@code received - distinct}: arrivals beyond one per event and device
 * @param lost               {@code expected - distinct}: never received by the end of the drain
 * @param misdelivered       arrivals whose Topic is no event of the run or whose device is not its user's (goal 0)
 * @param windowPushes       pushes received within the measured window (repeats included)
 * @param windowSeconds      the window's length
 * @param pushesPerSecond    {@code windowPushes / windowSeconds}: steady-state pushes/s at the receiver
 * @param windowRecords      records made within the window
 * @param recordsPerSecond   {@code windowRecords / windowSeconds}: the offered rate achieved
 * @param latenessSamples    first arrivals of the pushes of records due within the window
 * @param latenessMinMs      their arrival minus the record's due time; p50, p99 (nearest rank) and max follow
 * @param lastArrivalAt      the last arrival (epoch ms; 0 for none)
 */
record PushTally(long records, long expected, long received, long distinct, long duplicates, long lost, long misdelivered,
                 long windowPushes, double windowSeconds, double pushesPerSecond, long windowRecords, double recordsPerSecond,
                 long latenessSamples, double latenessMinMs, double latenessP50Ms, double latenessP99Ms, double latenessMaxMs,
                 long lastArrivalAt) {

    /**
     * @param dueAt    record {@code i}'s due time (epoch ms), for every record produced
     * @param from     the measured window's start (epoch ms, inclusive)
     * @param to       its end (exclusive)
     */
    static PushTally of(long[] dueAt, String prefix, int users, int devicesPerUser, List<LatencyPushService.Arrival> arrivals,
                        long from, long to) {
        long devices = (long) users * devicesPerUser;
        Map<Long, Long> firstAt = new HashMap<>(arrivals.size() * 2);
        long received = 0;
        long misdelivered = 0;
        long windowPushes = 0;
        long last = 0;
        for (LatencyPushService.Arrival a : arrivals) {
            long i = FallbackLoad.indexOf(prefix, a.topic());
            if (i < 0 || i >= dueAt.length || a.device() < 0 || a.device() >= devices || a.device() / devicesPerUser != i % users) {
                misdelivered++;
                continue;
            }
            received++;
            last = Math.max(last, a.at());
            if (a.at() >= from && a.at() < to) {
                windowPushes++;
            }
            firstAt.merge(i * devices + a.device(), a.at(), Math::min);
        }
        long[] lateness = firstAt.entrySet().stream()
                .filter(e -> inWindow(dueAt[(int) (e.getKey() / devices)], from, to))
                .mapToLong(e -> e.getValue() - dueAt[(int) (e.getKey() / devices)])
                .sorted().toArray();
        long windowRecords = 0;
        for (long d : dueAt) {
            if (inWindow(d, from, to)) {
                windowRecords++;
            }
        }
        double seconds = Math.max(0, to - from) / 1000.0;
        long expected = dueAt.length * (long) devicesPerUser;
        long distinct = firstAt.size();
        return new PushTally(dueAt.length, expected, received, distinct, received - distinct, expected - distinct, misdelivered,
                windowPushes, seconds, seconds > 0 ? windowPushes / seconds : Double.NaN, windowRecords,
                seconds > 0 ? windowRecords / seconds : Double.NaN, lateness.length,
                lateness.length == 0 ? Double.NaN : lateness[0], Stats.quantile(lateness, 0.5), Stats.quantile(lateness, 0.99),
                lateness.length == 0 ? Double.NaN : lateness[lateness.length - 1], last);
    }

    private static boolean inWindow(long at, long from, long to) {
        return at >= from && at < to;
    }
}
