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
 * device of its user: an acknowledged event a device never got is <b>lost</b>; an event id a device
 * got twice is a <b>duplicate</b>; a seq at or below the last one a device got is <b>out of
 * order</b>; a seq past the next one is a <b>gap</b> (a silent one unless the skipped events arrive —
 * they cannot, the client never goes back); a reset the client reports is counted and moves the
 * device to the head it names (what it skipped shows up as lost). Works in windows: {@link #verdict()} judges the events
 * acknowledged since the previous verdict and opens the next window. Thread-safe.
 */
final class Verifier {

    /** The judgment of one window; {@link #passed()} is the zero-loss rule. */
    record Verdict(long acked, long publishFailures, long expectedDeliveries, long delivered, long lost, long duplicates,
                   long outOfOrder, long gaps, long resets, long unackedDeliveries, List<String> lostSamples,
                   List<String> anomalies, LatencySummary latencyMs) {

        boolean passed() {
            return acked > 0 && lost == 0 && duplicates == 0 && outOfOrder == 0 && gaps == 0;
        }
    }

    private static final int SAMPLES = 10;

    private static final class Device {
        final int user;
        final Set<String> ids = new HashSet<>();
        String epoch;
        long lastSeq;

        Device(int user) {
            this.user = user;
        }
    }

    private final Device[] devices;
    private final int devicesPerUser;
    private final List<String> ackedIds = new ArrayList<>();
    private final List<Integer> ackedUsers = new ArrayList<>();
    private final Map<String, Integer> acked = new HashMap<>();
    private final Histogram latencyMicros = LatencySummary.newHistogram();
    private int windowStart;
    private long delivered;
    private long duplicates;
    private long outOfOrder;
    private long gaps;
    private long publishFailures;
    private long resets;
    private final List<String> anomalies = new ArrayList<>();

    Verifier(int users, int devicesPerUser) {
        this.devicesPerUser = devicesPerUser;
        this.devices = new Device[users * devicesPerUser];
        for (int i = 0; i < devices.length; i++) {
            devices[i] = new Device(i / devicesPerUser);
        }
    }

    synchronized void acked(String eventId, int user) {
        if (acked.putIfAbsent(eventId, user) == null) {
            ackedIds.add(eventId);
            ackedUsers.add(user);
        }
    }

    synchronized void publishFailed() {
        publishFailures++;
    }

    /** A durable event reached the application callback of {@code device}. */
    synchronized void delivered(int device, String eventId, String epoch, long seq, long micros) {
        Device d = devices[device];
        if (!d.ids.add(eventId)) {
            duplicates++;
            note("device " + device + ": " + eventId + " again at " + epoch + ":" + seq);
            return;
        }
        delivered++;
        if (micros >= 0) {
            latencyMicros.recordValue(Math.min(micros, latencyMicros.getHighestTrackableValue()));
        }
        if (!epoch.equals(d.epoch)) {
            // A new epoch restarts the count; the first event of a fresh stream is seq 1.
            if (d.epoch == null && seq > 1) {
                gaps += seq - 1;
                note("device " + device + ": first event at " + epoch + ":" + seq);
            }
            d.epoch = epoch;
            d.lastSeq = seq;
            return;
        }
        if (seq <= d.lastSeq) {
            outOfOrder++;
            note("device " + device + ": " + epoch + ":" + seq + " after " + d.lastSeq);
        } else {
            if (seq > d.lastSeq + 1) {
                gaps += seq - d.lastSeq - 1;
                note("device " + device + ": " + epoch + ":" + seq + " after " + d.lastSeq + " (" + eventId + ")");
            }
            d.lastSeq = seq;
        }
    }

    /** The client reported a reset of the device's stream: it continues at {@code head} (null: from scratch). */
    synchronized void reset(int device, String reason, String headEpoch, long headSeq) {
        resets++;
        note("device " + device + ": reset " + reason + " to " + headEpoch + ":" + headSeq);
        Device d = devices[device];
        d.epoch = headEpoch;
        d.lastSeq = headSeq;
    }

    private void note(String anomaly) {
        if (anomalies.size() < SAMPLES) {
            anomalies.add(anomaly);
        }
    }

    /** Devices that have received at least one event. */
    synchronized int devicesWithEvents() {
        int n = 0;
        for (Device d : devices) {
            n += d.ids.isEmpty() ? 0 : 1;
        }
        return n;
    }

    /** Deliveries of this window's acknowledged events that have not happened yet. */
    synchronized long missing() {
        return countMissing(null);
    }

    private long countMissing(List<String> samples) {
        long missing = 0;
        for (int i = windowStart; i < ackedIds.size(); i++) {
            String id = ackedIds.get(i);
            int user = ackedUsers.get(i);
            for (int k = 0; k < devicesPerUser; k++) {
                if (!devices[user * devicesPerUser + k].ids.contains(id)) {
                    missing++;
                    if (samples != null && samples.size() < SAMPLES) {
                        samples.add(id + "→user-" + user + "/device-" + k);
                    }
                }
            }
        }
        return missing;
    }

    /** This window's missing deliveries per device (only devices missing some). */
    synchronized Map<Integer, Long> missingByDevice() {
        Map<Integer, Long> out = new java.util.TreeMap<>();
        for (int i = windowStart; i < ackedIds.size(); i++) {
            int user = ackedUsers.get(i);
            for (int k = 0; k < devicesPerUser; k++) {
                int device = user * devicesPerUser + k;
                if (!devices[device].ids.contains(ackedIds.get(i))) {
                    out.merge(device, 1L, Long::sum);
                }
            }
        }
        return out;
    }

    /** Judges this window and opens the next one. */
    synchronized Verdict verdict() {
        List<String> samples = new ArrayList<>();
        long lost = countMissing(samples);
        long ackedInWindow = ackedIds.size() - windowStart;
        long unacked = 0;
        for (Device d : devices) {
            for (String id : d.ids) {
                if (!acked.containsKey(id)) {
                    unacked++;
                }
            }
        }
        Verdict v = new Verdict(ackedInWindow, publishFailures, ackedInWindow * devicesPerUser, delivered, lost, duplicates,
                outOfOrder, gaps, resets, unacked, samples, List.copyOf(anomalies), LatencySummary.of(latencyMicros));
        windowStart = ackedIds.size();
        delivered = 0;
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
