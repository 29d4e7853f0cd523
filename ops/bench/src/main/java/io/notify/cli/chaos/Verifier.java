package io.notify.cli.chaos;

import io.notify.cli.bench.LatencySummary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Counts every event from the producer's acknowledgment to the application callback of every
 * device it is addressed to: the devices of its user, or — for a room event — every device
 * subscribed to the room ({@link Audience}). An acknowledged event a device never got is
 * <b>lost</b>; an event id a device got twice is a <b>duplicate</b>; a seq at or below the last one
 * a device got on that stream is <b>out of order</b>; a seq past the next one is a <b>gap</b> (a
 * silent one unless the skipped events arrive — they cannot, the client never goes back). Each
 * device is judged per stream: its user stream and its room stream each have their own
 * {@code (epoch, seq)}. A reset the client reports is counted and moves the device's stream to the
 * head it names (what it skipped shows up as lost); a room subscription confirmed without a stored
 * position starts the stream at the head the gateway names. A {@code collapsed} range (any reason:
 * superseded, muted, expired, recalled) covers its seqs: it continues the stream as an event would,
 * so it is no gap. An event the producer gave a ttl or recalls ({@link Withheld}) is neither lost
 * nor expected: it may arrive or not; if it arrives it is judged for duplicates and order like any
 * other, and a recalled one must not arrive after the device was told of its recall ({@code recalled}
 * frame, or {@code collapsed} with reason {@code recalled}). Works in windows: {@link #verdict()}
 * judges the events acknowledged since the previous verdict and opens the next window. Thread-safe.
 */
final class Verifier {

    /**
     * The judgment of one window; {@link #passed()} is the zero-loss rule. {@code expectedDeliveries},
     * {@code delivered} and {@code lost} leave out the events the producer gave a ttl or recalled
     * ({@code expiry}, {@code recalls}); {@code acked} and the duplicate and order counts do not.
     * {@code roomAcked} and {@code roomDelivered}: the part of {@code acked} addressed to rooms and of
     * {@code delivered} that came through room streams. {@code collapsed}: seqs the devices were told
     * without content, by reason ({@code collapsed}: superseded; {@code expired}; {@code muted}; {@code recalled}).
     */
    record Verdict(long acked, long publishFailures, long expectedDeliveries, long delivered, long lost, long duplicates,
                   long outOfOrder, long gaps, long resets, long unackedDeliveries, long roomAcked, long roomDelivered,
                   Withheld.Expiry expiry, Withheld.Recalls recalls, Map<String, Long> collapsed,
                   List<String> lostSamples, List<String> anomalies, LatencySummary latencyMs) {

        boolean passed() {
            return acked > 0 && lost == 0 && duplicates == 0 && outOfOrder == 0 && gaps == 0
                    && recalls.afterRecall() == 0 && recalls.unexpected() == 0;
        }
    }

    private static final int SAMPLES = 10;

    /** Where one device stands on one stream. */
    private static final class Track {
        String epoch;
        long lastSeq;
        boolean hadEvent;
        Set<Long> recalled; // seqs of this epoch told as collapsed(recalled); null: none

        /** The stream goes on at {@code newEpoch}: seqs recalled in another epoch are not these. */
        void epoch(String newEpoch) {
            if (epoch != null && !epoch.equals(newEpoch)) {
                recalled = null;
            }
            epoch = newEpoch;
        }
    }

    private static final class Device {
        final Set<String> ids = new HashSet<>();
        final Map<String, Track> streams = new HashMap<>(4);
        final Set<String> recalledIds = new HashSet<>(); // told by a recalled frame
        int streamsWithEvents;

        Track track(String stream) {
            return streams.computeIfAbsent(stream, s -> new Track());
        }
    }

    private final Audience audience;
    private final int[][] targets;
    private final Device[] devices;
    private final List<String> ackedIds = new ArrayList<>();
    private final List<Integer> ackedTargets = new ArrayList<>();
    private final Map<String, Integer> acked = new HashMap<>();
    private final Map<String, Withheld.Fate> fates = new HashMap<>();
    private final Map<String, Long> collapsed = new TreeMap<>();
    private final Histogram latencyMicros = LatencySummary.newHistogram();
    private int windowStart;
    private long delivered;
    private long roomDelivered;
    private long duplicates;
    private long outOfOrder;
    private long gaps;
    private long publishFailures;
    private long resets;
    private long recallsSent;
    private long recalledFrames;
    private long afterRecall;
    private long unexpectedRecalls;
    private long expiredLate;
    private final List<String> anomalies = new ArrayList<>();

    Verifier(int users, int devicesPerUser) {
        this(new Audience(users, devicesPerUser, 0));
    }

    Verifier(Audience audience) {
        this.audience = audience;
        this.devices = new Device[audience.devices()];
        for (int i = 0; i < devices.length; i++) {
            devices[i] = new Device();
        }
        this.targets = new int[audience.targets()][];
        for (int t = 0; t < targets.length; t++) {
            targets[t] = audience.devicesOf(t);
        }
    }

    Audience audience() {
        return audience;
    }

    /** The producer's acknowledgment of {@code eventId}, addressed to {@code target} (a user, or a room: {@link Audience}). */
    synchronized void acked(String eventId, int target) {
        if (acked.putIfAbsent(eventId, target) == null) {
            ackedIds.add(eventId);
            ackedTargets.add(target);
        }
    }

    /** Before it is published: the producer gives {@code eventId} a ttl or will recall it ({@link Withheld}). */
    synchronized void withheld(String eventId, Withheld.Fate fate) {
        fates.put(eventId, fate);
    }

    /** The recall of {@code eventId} was acknowledged. */
    synchronized void recallSent(String eventId) {
        recallsSent++;
    }

    synchronized void publishFailed() {
        publishFailures++;
    }

    /** A durable event of the device's user stream reached its application callback. */
    synchronized void delivered(int device, String eventId, String epoch, long seq, long micros) {
        delivered(device, "user", eventId, epoch, seq, micros);
    }

    /** A durable event of {@code stream} reached the application callback of {@code device}. */
    synchronized void delivered(int device, String stream, String eventId, String epoch, long seq, long micros) {
        delivered(device, stream, eventId, epoch, seq, micros, -1);
    }

    /** As above, for an event that expires at {@code expiresAtMs} (epoch ms; -1: never). */
    synchronized void delivered(int device, String stream, String eventId, String epoch, long seq, long micros,
                                long expiresAtMs) {
        Device d = devices[device];
        Track t = d.track(stream);
        if (d.recalledIds.contains(eventId)
                || t.recalled != null && t.recalled.contains(seq) && (t.epoch == null || t.epoch.equals(epoch))) {
            afterRecall++;
            note("device " + device + ": " + eventId + " at " + stream + " " + epoch + ":" + seq + " after its recall");
        }
        if (!d.ids.add(eventId)) {
            duplicates++;
            note("device " + device + ": " + eventId + " again at " + stream + " " + epoch + ":" + seq);
            return;
        }
        Withheld.Fate fate = fates.get(eventId);
        if (fate == null) {
            delivered++;
            if (!stream.equals("user")) {
                roomDelivered++;
            }
        } else if (expiresAtMs >= 0 && System.currentTimeMillis() > expiresAtMs) {
            expiredLate++;
        }
        if (micros >= 0) {
            latencyMicros.recordValue(Math.min(micros, latencyMicros.getHighestTrackableValue()));
        }
        if (!t.hadEvent) {
            t.hadEvent = true;
            d.streamsWithEvents++;
        }
        if (!epoch.equals(t.epoch)) {
            // A new epoch restarts the count; the first event of a fresh stream is seq 1.
            if (t.epoch == null && seq > t.lastSeq + 1) {
                gaps += seq - t.lastSeq - 1;
                note("device " + device + ": first event of " + stream + " at " + epoch + ":" + seq);
            }
            t.epoch(epoch);
            t.lastSeq = seq;
            return;
        }
        if (seq <= t.lastSeq) {
            outOfOrder++;
            note("device " + device + ": " + stream + " " + epoch + ":" + seq + " after " + t.lastSeq);
        } else {
            if (seq > t.lastSeq + 1) {
                gaps += seq - t.lastSeq - 1;
                note("device " + device + ": " + stream + " " + epoch + ":" + seq + " after " + t.lastSeq + " (" + eventId + ")");
            }
            t.lastSeq = seq;
        }
    }

    /**
     * The device was told that seqs {@code from..to} of {@code stream} (in the epoch it follows) count
     * as processed without their content, for {@code reason}: they continue the stream as events would.
     */
    synchronized void collapsed(int device, String stream, long from, long to, String reason) {
        collapsed.merge(reason, to - from + 1, Long::sum);
        Track t = devices[device].track(stream);
        if (to <= t.lastSeq) {
            outOfOrder++;
            note("device " + device + ": " + stream + " collapsed " + from + ".." + to + " (" + reason + ") after " + t.lastSeq);
            return;
        }
        if (from > t.lastSeq + 1) {
            gaps += from - t.lastSeq - 1;
            note("device " + device + ": " + stream + " collapsed " + from + ".." + to + " (" + reason + ") after " + t.lastSeq);
        }
        t.lastSeq = to;
    }

    /**
     * The device was told that the producer recalled the event at {@code seq} of {@code stream}:
     * {@code eventId} from a {@code recalled} frame (the event had been sent to it; its position does not
     * move), null from a {@code collapsed} seq with reason {@code recalled} (a catch-up: the seq counts as
     * processed). Its content must not come after this.
     */
    synchronized void recalled(int device, String stream, long seq, String eventId) {
        Device d = devices[device];
        if (eventId == null) {
            Track t = d.track(stream);
            if (t.recalled == null) {
                t.recalled = new HashSet<>(4);
            }
            t.recalled.add(seq);
            collapsed(device, stream, seq, seq, "recalled");
            return;
        }
        recalledFrames++;
        d.recalledIds.add(eventId);
        if (fates.get(eventId) != Withheld.Fate.RECALLED) {
            unexpectedRecalls++;
            note("device " + device + ": recalled frame for " + eventId + " at " + stream + " " + seq + ", never recalled");
        }
    }

    /**
     * The gateway confirmed the device's subscription to {@code stream} at {@code head} (epoch null:
     * the stream has no history yet). A stream the device already follows keeps its place — the
     * client resumed it from its stored position; a new one starts at the head, as the client does.
     */
    synchronized void subscribed(int device, String stream, String headEpoch, long headSeq) {
        Track t = devices[device].streams.get(stream);
        if (t == null) {
            t = devices[device].track(stream);
            t.epoch = headEpoch;
            t.lastSeq = headSeq;
        }
    }

    /** The client reported a reset of the device's user stream: it continues at {@code head} (null: from scratch). */
    synchronized void reset(int device, String reason, String headEpoch, long headSeq) {
        reset(device, "user", reason, headEpoch, headSeq);
    }

    /** The client reported a reset of {@code stream}: it continues at {@code head} (null: from scratch). */
    synchronized void reset(int device, String stream, String reason, String headEpoch, long headSeq) {
        resets++;
        note("device " + device + ": reset of " + stream + " " + reason + " to " + headEpoch + ":" + headSeq);
        Track t = devices[device].track(stream);
        t.epoch(headEpoch);
        t.lastSeq = headSeq;
    }

    private void note(String anomaly) {
        if (anomalies.size() < SAMPLES) {
            anomalies.add(anomaly);
        }
    }

    /** Devices that have received at least one event on each of their streams (user, and room when there are rooms). */
    synchronized int devicesWithEvents() {
        int n = 0;
        for (Device d : devices) {
            n += d.streamsWithEvents >= audience.streamsPerDevice() ? 1 : 0;
        }
        return n;
    }

    /** Deliveries of this window's acknowledged events that have not happened yet. */
    synchronized long missing() {
        return countMissing(null, null);
    }

    private long countMissing(List<String> samples, Map<Integer, Long> byDevice) {
        long missing = 0;
        for (int i = windowStart; i < ackedIds.size(); i++) {
            String id = ackedIds.get(i);
            if (fates.containsKey(id)) {
                continue; // may rightly never arrive
            }
            int target = ackedTargets.get(i);
            for (int device : targets[target]) {
                if (!devices[device].ids.contains(id)) {
                    missing++;
                    if (samples != null && samples.size() < SAMPLES) {
                        samples.add(id + "→" + audience.describe(target) + "/device-" + device);
                    }
                    if (byDevice != null) {
                        byDevice.merge(device, 1L, Long::sum);
                    }
                }
            }
        }
        return missing;
    }

    /** This window's missing deliveries per device (only devices missing some). */
    synchronized Map<Integer, Long> missingByDevice() {
        Map<Integer, Long> out = new TreeMap<>();
        countMissing(null, out);
        return out;
    }

    /** Judges this window and opens the next one. */
    synchronized Verdict verdict() {
        List<String> samples = new ArrayList<>();
        long lost = countMissing(samples, null);
        long ackedInWindow = ackedIds.size() - windowStart;
        long expected = 0;
        long roomAcked = 0;
        long[] expiring = new long[3]; // sent, due, arrived
        long[] recalling = new long[2]; // events, arrived
        for (int i = windowStart; i < ackedIds.size(); i++) {
            int target = ackedTargets.get(i);
            roomAcked += audience.isRoom(target) ? 1 : 0;
            Withheld.Fate fate = fates.get(ackedIds.get(i));
            if (fate == null) {
                expected += targets[target].length;
                continue;
            }
            long arrived = 0;
            for (int device : targets[target]) {
                arrived += devices[device].ids.contains(ackedIds.get(i)) ? 1 : 0;
            }
            if (fate == Withheld.Fate.EXPIRING) {
                expiring[0]++;
                expiring[1] += targets[target].length;
                expiring[2] += arrived;
            } else {
                recalling[0]++;
                recalling[1] += arrived;
            }
        }
        Withheld.Expiry expiry = new Withheld.Expiry(expiring[0], expiring[1], expiring[2], expiring[1] - expiring[2], expiredLate);
        Withheld.Recalls recalls = new Withheld.Recalls(recalling[0], recallsSent, recalledFrames,
                collapsed.getOrDefault("recalled", 0L), recalling[1], afterRecall, unexpectedRecalls);
        long unacked = 0;
        for (Device d : devices) {
            for (String id : d.ids) {
                if (!acked.containsKey(id)) {
                    unacked++;
                }
            }
        }
        Verdict v = new Verdict(ackedInWindow, publishFailures, expected, delivered, lost, duplicates, outOfOrder, gaps,
                resets, unacked, roomAcked, roomDelivered, expiry, recalls, new TreeMap<>(collapsed), samples, List.copyOf(anomalies),
                LatencySummary.of(latencyMicros));
        windowStart = ackedIds.size();
        delivered = 0;
        roomDelivered = 0;
        duplicates = 0;
        outOfOrder = 0;
        gaps = 0;
        publishFailures = 0;
        resets = 0;
        recallsSent = 0;
        recalledFrames = 0;
        afterRecall = 0;
        unexpectedRecalls = 0;
        expiredLate = 0;
        collapsed.clear();
        anomalies.clear();
        latencyMicros.reset();
        return v;
    }
}
