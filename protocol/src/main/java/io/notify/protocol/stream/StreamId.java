package io.notify.protocol.stream;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.notify.protocol.event.Recipients;
import io.notify.protocol.text.IdChars;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Names one resumable stream: a user's personal stream {@code u:<userId>} (the user id follows
 * {@link Recipients#USER_ID}), a room {@code r:<room>} (the room name follows
 * {@link Recipients#ROOM}), or the broadcast stream {@code b:all} that every subscriber of it shares.
 * All three are sequenced, inboxed and resumed the same way; they differ in who may read them and
 * in how the router finds their devices (docs/protocol.md, "Rooms and broadcast").
 *
 * <p>Guarantees: the value always matches {@link #PATTERN}; it contains no '{', '}', '|', space or
 * control character, so it is safe as a Kafka key, inside a Redis hash tag ({@code nf:conns:{u:42}},
 * {@code nf:subs:{r:chat-1}}), in a registry member and in JSON/SSE text. On the wire it is a plain
 * JSON string.
 */
public record StreamId(String value) implements Comparable<StreamId> {

    /** The three kinds of stream, by prefix. */
    public enum Kind { USER, ROOM, BROADCAST }

    public static final String USER_PREFIX = "u:";
    public static final String ROOM_PREFIX = "r:";
    public static final String BROADCAST_VALUE = "b:all";
    /** The one broadcast stream. */
    public static final StreamId BROADCAST = new StreamId(BROADCAST_VALUE);
    /** "u:" and a user id ({@link Recipients#USER_ID}), "r:" and a room name ({@link Recipients#ROOM}), or "b:all". */
    public static final Pattern PATTERN = Pattern.compile(
            "^(u:[A-Za-z0-9._:@-]{1,128}|r:[A-Za-z0-9._:-]{1,128}|b:all)$");
    public static final int MAX_LENGTH = USER_PREFIX.length() + 128;

    public StreamId {
        if (value == null) {
            throw new IllegalArgumentException("stream is required");
        }
        if (kindOf(value) == null) {
            throw new IllegalArgumentException("stream must be 'u:<userId>' (1..128 chars of [A-Za-z0-9._:@-]), "
                    + "'r:<room>' (1..128 chars of [A-Za-z0-9._:-]) or 'b:all', got '" + Texts.clip(value) + "'");
        }
    }

    /** The kind of a valid stream id; null when {@code value} is not one. */
    private static Kind kindOf(String value) {
        if (value.startsWith(USER_PREFIX)) {
            return IdChars.matchesFrom(value, USER_PREFIX.length(), 1, 128, Recipients.USER_ID_EXTRA, false) ? Kind.USER : null;
        }
        if (value.startsWith(ROOM_PREFIX)) {
            return IdChars.matchesFrom(value, ROOM_PREFIX.length(), 1, 128, Recipients.ROOM_EXTRA, false) ? Kind.ROOM : null;
        }
        return value.equals(BROADCAST_VALUE) ? Kind.BROADCAST : null;
    }

    /** Whether {@code value} is a valid stream id (no exception on the way). */
    public static boolean isValid(String value) {
        return value != null && kindOf(value) != null;
    }

    /** Parses and validates untrusted text; the JSON creator. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static StreamId parse(String value) {
        return new StreamId(value);
    }

    /** The personal stream of a user. */
    public static StreamId forUser(String userId) {
        if (!Recipients.isUserId(userId)) {
            throw new IllegalArgumentException("user id must be 1..128 chars of [A-Za-z0-9._:@-], got '"
                    + Texts.clip(userId) + "'");
        }
        return new StreamId(USER_PREFIX + userId);
    }

    /** Every stream {@code to} addresses: its users', then its rooms', then {@code b:all}, in the order given. */
    public static List<StreamId> addressedBy(Recipients to) {
        List<StreamId> out = new ArrayList<>(to.users().size() + to.rooms().size() + 1);
        for (String u : to.users()) {
            out.add(forUser(u));
        }
        for (String r : to.rooms()) {
            out.add(forRoom(r));
        }
        if (to.isBroadcast()) {
            out.add(BROADCAST);
        }
        return out;
    }

    /** The stream of a room. */
    public static StreamId forRoom(String room) {
        if (!Recipients.isRoom(room)) {
            throw new IllegalArgumentException("room name must be 1..128 chars of [A-Za-z0-9._:-], got '"
                    + Texts.clip(room) + "'");
        }
        return new StreamId(ROOM_PREFIX + room);
    }

    @JsonValue
    @Override
    public String value() {
        return value;
    }

    public boolean isUser() {
        return value.startsWith(USER_PREFIX);
    }

    public boolean isRoom() {
        return value.startsWith(ROOM_PREFIX);
    }

    public boolean isBroadcast() {
        return value.equals(BROADCAST_VALUE);
    }

    public Kind kind() {
        return kindOf(value);
    }

    /** The room name of a room stream ("r:chat-1" gives "chat-1"). */
    public String room() {
        if (!isRoom()) {
            throw new IllegalStateException(value + " is not a room stream");
        }
        return value.substring(ROOM_PREFIX.length());
    }

    /** The user id of a user stream ("u:42" gives "42"). */
    public String userId() {
        if (!isUser()) {
            throw new IllegalStateException(value + " is not a user stream");
        }
        return value.substring(USER_PREFIX.length());
    }

    @Override
    public int compareTo(StreamId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
