package io.notify.gateway.rooms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.stream.StreamId;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoomPatternsTest {

    private static boolean allows(String pattern, String room) {
        return RoomPatterns.of(List.of(pattern)).matches(room);
    }

    @Test
    void starMatchesAnyRunOfRoomCharactersTheRestIsLiteral() {
        assertTrue(allows("chat-*", "chat-1"));
        assertTrue(allows("chat-*", "chat-"), "the empty run");
        assertFalse(allows("chat-*", "chat"));
        assertFalse(allows("chat-*", "xchat-1"), "anchored at the start");
        assertTrue(allows("org-7.*", "org-7.ops"));
        assertFalse(allows("org-7.*", "org-70.ops"), "the dot is literal, not any character");
        assertFalse(allows("org-7.*", "org-7"));
        assertTrue(allows("*", "anything:at-all"));
        assertTrue(allows("*.ops", "org-7.ops"));
        assertFalse(allows("*.ops", "org-7.opsx"), "anchored at the end");
        assertTrue(allows("a*b*c", "aXXbYYc"));
        assertTrue(allows("a*b*c", "abc"));
        assertFalse(allows("a*b*c", "acb"));
        assertTrue(allows("a**", "a"));
        assertTrue(allows("ns:*:x", "ns:room:x"));
        assertFalse(allows("chat-1", "chat-10"), "no star: exact name");
        assertTrue(allows("chat-1", "chat-1"));
        assertTrue(allows("*a*a*a*a*b", "a".repeat(120) + "b"));
        assertFalse(allows("*a*a*a*a*b", "a".repeat(127)));
    }

    @Test
    void patternsAreBoundedAndCheckedCharacterByCharacter() {
        for (String bad : List.of("", "a b", "x|y", "{x}", "a@b", "ü", "x".repeat(129))) {
            assertThrows(IllegalArgumentException.class, () -> RoomPatterns.of(List.of(bad)), bad);
        }
        RoomPatterns.of(Collections.nCopies(RoomPatterns.MAX_PATTERNS, "r"));
        assertThrows(IllegalArgumentException.class, () -> RoomPatterns.of(Collections.nCopies(RoomPatterns.MAX_PATTERNS + 1, "r")));
        assertTrue(RoomPatterns.of(List.of()).isEmpty());
        assertFalse(RoomPatterns.none().matches("x"));
    }

    @Test
    void accessIsPublicPatternsOrTheClaimAndBroadcastIsOpen() {
        RoomPatterns pub = RoomPatterns.of(List.of("lobby", "news:*"));
        RoomPatterns claim = RoomPatterns.of(List.of("chat-*"));
        assertNull(RoomAccess.refusal(pub, StreamId.BROADCAST, null));
        assertNull(RoomAccess.refusal(pub, StreamId.forRoom("lobby"), null));
        assertNull(RoomAccess.refusal(pub, StreamId.forRoom("news:today"), null));
        assertNull(RoomAccess.refusal(pub, StreamId.forRoom("news:today"), claim), "public rooms stay public with a claim");
        assertNull(RoomAccess.refusal(pub, StreamId.forRoom("chat-9"), claim));
        assertEquals("room 'chat-9' is not public and the token has no rooms claim",
                RoomAccess.refusal(pub, StreamId.forRoom("chat-9"), null));
        assertEquals("the token's rooms claim does not allow room 'secret'",
                RoomAccess.refusal(pub, StreamId.forRoom("secret"), claim));
        assertTrue(RoomAccess.refusal(RoomPatterns.none(), StreamId.forRoom("lobby"), RoomPatterns.none()) != null);
    }
}
