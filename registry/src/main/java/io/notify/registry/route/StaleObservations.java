package io.notify.registry.route;

import io.notify.registry.ConnectionRef;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The readings behind the most recent stale verdicts, per stream key, so that a removal can be
 * conditioned on exactly what the router saw: the member's score, and whether its node was judged
 * gone (no liveness key, or another incarnation) rather than merely its lease expired. Bounded
 * (least recently recorded dropped first); a removal without its reading falls back to expiry only.
 */
final class StaleObservations {

    /** The stream's set as read, and the incarnation alive per node at the verdict (absent: none). */
    record Observation(StreamSnapshot snapshot, Map<String, String> aliveIncarnations) {

        /** The score to compare-and-remove on, or {@link StaleRemover#UNSEEN} if only expiry may remove it. */
        long scoreIfNodeGone(ConnectionRef ref) {
            boolean nodeGone = !ref.incarnation().equals(aliveIncarnations.get(ref.nodeId()));
            return nodeGone ? snapshot.scoreOf(ref) : StaleRemover.UNSEEN;
        }
    }

    private final int max;
    private final LinkedHashMap<String, Observation> byKey = new LinkedHashMap<>();

    StaleObservations(int max) {
        this.max = max;
    }

    synchronized void record(String key, StreamSnapshot snapshot, Map<String, String> aliveIncarnations) {
        byKey.put(key, new Observation(snapshot, Map.copyOf(aliveIncarnations)));
        if (byKey.size() > max) {
            byKey.remove(byKey.keySet().iterator().next());
        }
    }

    /** The last reading recorded for the key, forgotten as it is handed out; null if none. */
    synchronized Observation take(String key) {
        return byKey.remove(key);
    }

    synchronized int size() {
        return byKey.size();
    }
}
