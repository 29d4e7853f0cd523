package io.notify.fanout.routing;

import io.notify.protocol.stream.StreamId;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which rooms go to every node through {@code notify.all-nodes} instead of one message per
 * subscribed node (docs/topics.md, "notify.all-nodes"). A room turns hot when the registry shows it
 * subscribed on more than {@code nodes} nodes, or when more than {@code eventsPerSecond} of its
 * events arrive within one second; it stays hot for {@code hold} after the last time either held,
 * so it switches once, not back and forth with every event. While hot, its events cost one Kafka
 * message and no registry lookup. {@code b:all} is always routed that way and is never tracked here.
 *
 * <p>State is per router (one per stream task), bounded to {@link #MAX_TRACKED} rooms (least
 * recently seen forgotten first: a forgotten hot room is looked up again and turns hot again at
 * once if it still is). Not thread-safe: a task's processor is called by one thread.
 */
public final class HotRooms {

    /** Rooms whose rate and hot state one router remembers. */
    public static final int MAX_TRACKED = 10_000;

    /** The thresholds ({@code notify.fanout.hot-room.*}). */
    public record Settings(int nodes, int eventsPerSecond, Duration hold) {
        public Settings {
            if (nodes < 1 || eventsPerSecond < 1 || hold.isNegative()) {
                throw new IllegalArgumentException("hot-room thresholds must be positive: " + nodes + ", " + eventsPerSecond + ", " + hold);
            }
        }
    }

    private static final class Room {
        long windowStartMs;
        int inWindow;
        long hotUntilMs;
    }

    private final Settings settings;
    private final Map<StreamId, Room> rooms = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<StreamId, Room> eldest) {
            return size() > MAX_TRACKED;
        }
    };

    public HotRooms(Settings settings) {
        this.settings = settings;
    }

    /** Counts an event of {@code room} at {@code nowMs}; true when the room is hot (its rate or an earlier verdict). */
    public boolean onEvent(StreamId room, long nowMs) {
        Room r = rooms.computeIfAbsent(room, k -> new Room());
        if (nowMs - r.windowStartMs >= 1000) {
            r.windowStartMs = nowMs;
            r.inWindow = 0;
        }
        if (++r.inWindow > settings.eventsPerSecond()) {
            r.hotUntilMs = nowMs + settings.hold().toMillis();
        }
        return nowMs < r.hotUntilMs;
    }

    /** The registry shows {@code room} on {@code nodes} nodes; true when that makes it hot. */
    public boolean onNodes(StreamId room, int nodes, long nowMs) {
        if (nodes <= settings.nodes()) {
            return false;
        }
        rooms.computeIfAbsent(room, k -> new Room()).hotUntilMs = nowMs + settings.hold().toMillis();
        return true;
    }
}
