package io.notify.schemas.stream;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.notify.schemas.event.Recipients;
import io.notify.schemas.text.IdChars;
import java.util.regex.Pattern;

/**
 * Names one resumable stream. v1 knows user streams only: {@code u:<userId>}, a user's personal
 * inbox, where the user id follows {@link Recipients#USER_ID}. {@code r:<room>} is reserved for room
 * channels and rejected until a version defines it, so nothing depends on it early.
 *
 * <p>Guarantees: the value always matches {@link #PATTERN}; it contains no '{', '}', '|', space or
 * control character, so it is safe as a Kafka key, inside a Redis hash tag ({@code nf:conns:{u:42}}),
 * in a registry member and in JSON/SSE text. On the wire it is a plain JSON string.
 */
public record StreamId(String value) implements Comparable<StreamId> {

    public static final String USER_PREFIX = "u:";
    public static final String ROOM_PREFIX = "r:";
    /** "u:" followed by a user id as defined by {@link Recipients#USER_ID}. */
    public static final Pattern PATTERN = Pattern.compile(
            "^" + USER_PREFIX + Recipients.USER_ID.pattern().substring(1));
    public static final int MAX_LENGTH = USER_PREFIX.length() + 128;

    public StreamId {
        if (value == null) {
            throw new IllegalArgumentException("stream is required");
        }
        if (!value.startsWith(USER_PREFIX) || !IdChars.matchesFrom(value, USER_PREFIX.length(), 1, 128, Recipients.USER_ID_EXTRA, false)) {
            if (value.startsWith(ROOM_PREFIX)) {
                throw new IllegalArgumentException("stream '" + Texts.clip(value)
                        + "': room streams (r:<room>) are reserved and not supported in v1");
            }
            throw new IllegalArgumentException("stream must be 'u:<userId>' with a user id of 1..128 chars of "
                    + "[A-Za-z0-9._:@-], got '" + Texts.clip(value) + "'");
        }
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

    @JsonValue
    @Override
    public String value() {
        return value;
    }

    public boolean isUser() {
        return value.startsWith(USER_PREFIX);
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
