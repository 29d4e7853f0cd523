package io.notify.gateway.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.frame.ResumePoint;
import io.notify.protocol.frame.SseCursor;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where an SSE client stands: its Last-Event-ID (plain position or composite cursor) against its ?rooms= list. */
class SseStartTest {

    static final StreamId ME = StreamId.forUser("42");
    static final StreamId CHAT = StreamId.forRoom("chat-1");
    static final StreamId LOBBY = StreamId.forRoom("lobby");

    private static String cursor(Object... streamsAndPositions) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < streamsAndPositions.length; i += 2) {
            SseCursor.append(sb, (StreamId) streamsAndPositions[i], (Position) streamsAndPositions[i + 1]);
        }
        return sb.toString();
    }

    @Test
    void noIdStartsEveryStreamFreshAndAPlainPositionIsTheUsersAsBeforeRooms() {
        assertEquals(new SseStart(List.of(), List.of("r:chat-1", "b:all")),
                SseStart.of(null, ME, List.of(CHAT, StreamId.BROADCAST)));
        assertEquals(new SseStart(List.of(ResumePoint.of(ME, Position.of("e1", 7))), List.of("r:chat-1")),
                SseStart.of("e1:7", ME, List.of(CHAT)));
    }

    @Test
    void aCursorResumesEachStreamByItsKeyAndIgnoresStreamsNoLongerAskedFor() {
        String id = cursor(ME, Position.of("e1", 7), CHAT, Position.of("c9", 3), LOBBY, Position.of("lb", 12));
        assertTrue(SseCursor.isCursor(id), id);
        assertFalse(SseCursor.isCursor("e1:7"));
        SseStart start = SseStart.of(id, ME, List.of(CHAT, StreamId.BROADCAST)); // the lobby was dropped from ?rooms=
        assertEquals(List.of(ResumePoint.of(ME, Position.of("e1", 7)), ResumePoint.of(CHAT, Position.of("c9", 3))), start.positions());
        assertEquals(List.of("b:all"), start.fresh());
    }

    @Test
    void aCursorOfAHundredStreamsFitsTheHeaderCapAndRoundTrips() {
        List<Object> parts = new ArrayList<>(List.of(ME, Position.of("x".repeat(64), Position.MAX_SEQ)));
        List<StreamId> rooms = new ArrayList<>();
        for (int i = 0; i < 99; i++) {
            StreamId room = StreamId.forRoom("room-" + i);
            rooms.add(room);
            parts.add(room);
            parts.add(Position.of("y".repeat(64), Position.MAX_SEQ));
        }
        String id = cursor(parts.toArray());
        assertTrue(id.length() <= SseCursor.MAX_CHARS && id.length() < 16 * 1024, id.length() + " chars");
        Map<String, Position> parsed = SseCursor.parse(id);
        assertEquals(100, parsed.size());
        assertEquals(100, SseStart.of(id, ME, rooms).positions().size());
        String typical = cursor(ME, Position.of("k3x9m2p8q7rdw5ta", 1234), CHAT, Position.of("q1w2e3r4t5y6u7i8", 56));
        assertTrue(typical.length() < 64, typical);
    }

    @Test
    void aBadCursorIsRefusedWithItsReason() {
        for (String bad : List.of("=e1:7", "ZZ=e1:7", "abc=e1", "abc=e1:0", "abc=e1:7,abc=e1:8", "abc=e1:7,", "1234567=e:1")) {
            assertThrows(IllegalArgumentException.class, () -> SseStart.of(bad, ME, List.of()), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> SseStart.of("no-colon", ME, List.of()));
    }
}
