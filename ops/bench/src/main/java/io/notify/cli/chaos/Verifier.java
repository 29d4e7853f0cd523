package io.notify.cli.chaos;

import io.notify.cli.bench.LatencySummary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * position starts the stream at the head the gateway names. Works in windows: {@link #verdict()}
 * judges the events acknowledged since the previous verdict and opens the next window. Thread-safe.
 */
final class Verifier {

    /**
     * The judgment of one window; {@link #passed()} is the zero-loss rule. {@code roomAcked} and
     * {@code roomDelivered}: the part of {@code acked} addressed to rooms and of {@code delivered}
     * that came through room streams.
     */
    record Verdict(long acked, long publishFailures, long expectedDeliveries, long delivered, long lost, long duplicates,
                   long outOfOrder, long gaps, long resets, long unackedDeliveries, long roomAcked, long roomDelivered,
                   List<String> lostSamples, List<String> anomalies, LatencySummary latencyMs) {

        boolean passed() {
            return acked > 0 && lost == 0 && duplicates == 0 && outOfOrder == 0 && gaps == 0;
        }
    }

    /**
     * Who gets what: {@code users × devicesPerUser} devices, device {@code d} belonging to user
     * {@code d / devicesPerUser} and, when there are rooms, subscribed to room {@code d % rooms}.
     * Targets {@code 0..users-1} are the users, {@code users..users+rooms-1} the rooms.
     */
    record Audience(int users, int devicesPerUser, int rooms) {

        int devices() {
            return users * devicesPerUser;
        }

        int targets() {
            return users + rooms;
        }

        static int roomOf(int device, int rooms) {
            return device % rooms;
        }

        int roomTarget(int room) {
            return users + room;
        }

        boolean isRoom(int target) {
            return target >= users;
        }

        /** The devices an event for {@code target} must reach. */
        int[] devicesOf(int target) {
            if (!isRoom(target)) {
                int[] out = new int[devicesPerUser];
                for (int k = 0; k < devicesPerUser; k++) {
                    out[k] = target * devicesPerUser + k;
                }
                return out;
            }
            int room = target - users;
            int[] out = new int[(devices() - room + rooms - 1) / rooms];
            for (int i = 0; i < out.length; i++) {
                out[i] = room + i * rooms;
            }
            return out;
        }

        /** The streams each device has: its user's, and its room's when there are rooms. */
        int streamsPerDevice() {
            return rooms > 0 ? 2 : 1;
        }

        String describe(int target) {
            return isRoom(target) ? "room-" + (target - users) : "user-" + target;
        }
    }

    private static final int SAMPLES = 10;

    /** Where one device stands on one stream. */
    private static final class Track {
        String epoch;
        long lastSeq;
        boolean hadEvent;
    }

    private static final class Device {
        final Set<String> ids = new HashSet<>();
        final Map<String, Track> streams = new HashMap<>(4);
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
    private final Histogram latencyMicros = LatencySummary.newHistogram();
    private int windowStart;
    private long delivered;
    private long roomDelivered;
    private long duplicates;
    private long outOfOrder;
    private long gaps;
    private long publishFailures;
    private long resets;
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

    synchronized void publishFailed() {
        publishFailures++;
    }

    /** A durable event of the device's user stream reached its application callback. */
    synchronized void delivered(int device, String eventId, String epoch, long seq, long micros) {
        delivered(device, "user", eventId, epoch, seq, micros);
    }

    /** A durable event of {@code stream} reached the application callback of {@code device}. */
    synchronized void delivered(int device, String stream, String eventId, String epoch, long seq, long micros) {
        Device d = devices[device];
        if (!d.ids.add(eventId)) {
            duplicates++;
            note("device " + device + ": " + eventId + " again at " + stream + " " + epoch + ":" + seq);
            return;
        }
        delivered++;
        if (!stream.equals("user")) {
            roomDelivered++;
        }
        if (micros >= 0) {
            latencyMicros.recordValue(Math.min(micros, latencyMicros.getHighestTrackableValue()));
        }
        Track t = d.track(stream);
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
            t.epoch = epoch;
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
        t.epoch = headEpoch;
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
        Map<Integer, Long> out = new java.util.TreeMap<>();
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
        for (int i = windowStart; i < ackedIds.size(); i++) {
            int target = ackedTargets.get(i);
            expected += targets[target].length;
            roomAcked += audience.isRoom(target) ? 1 : 0;
        }
        long unacked = 0;
        for (Device d : devices) {
            for (String id : d.ids) {
                if (!acked.containsKey(id)) {
                    unacked++;
                }
            }
        }
        Verdict v = new Verdict(ackedInWindow, publishFailures, expected, delivered, lost, duplicates, outOfOrder, gaps,
                resets, unacked, roomAcked, roomDelivered, samples, List.copyOf(anomalies), LatencySummary.of(latencyMicros));
        windowStart = ackedIds.size();
        delivered = 0;
        roomDelivered = 0;
        duplicates = 0;
        outOfOrder = 0;
        gaps = 0;
        publishFailures = 0;
        resets = 0;
        anomalies.clear();
        latencyMicros.reset();
        return v;
    }
}
