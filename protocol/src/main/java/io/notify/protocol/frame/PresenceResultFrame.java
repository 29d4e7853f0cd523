package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import io.notify.protocol.text.WireNames;
import java.util.List;

/**
 * Server to client: the answer to {@code presence}. Either {@code online} (users in the room over
 * every node), one page of {@code members} (user ids, in order) and {@code next} (the {@code after} of
 * the next page; absent on the last page); or {@code error} and nothing else.
 */
@JsonPropertyOrder({"stream", "online", "members", "next", "error"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PresenceResultFrame(String stream, Integer online, List<String> members, String next, Error error)
        implements ServerFrame {

    /** Why there is no answer. */
    public enum Error {
        /** The connection is not subscribed to the room (or the name is not a room). */
        NOT_SUBSCRIBED("not_subscribed"),
        /** Presence is off for the room's namespace ({@code notify.gateway.rooms.presence}). */
        OFF("off"),
        /** The registry did not answer in time: ask again later. */
        UNAVAILABLE("unavailable");

        private final String wireName;

        Error(String wireName) {
            this.wireName = wireName;
        }

        @JsonValue
        public String wireName() {
            return wireName;
        }

        @JsonCreator
        public static Error fromWire(String value) {
            return WireNames.parse(values(), Error::wireName, value, "error");
        }
    }

    public PresenceResultFrame {
        SubscribeFrame.requireStreamText(stream);
        if (error == null) {
            if (online == null || online < 0 || members == null) {
                throw new IllegalArgumentException("a presence result without error needs online and members");
            }
            members = List.copyOf(members);
        } else if (online != null || members != null || next != null) {
            throw new IllegalArgumentException("a presence error carries no online, members or next");
        }
    }

    public static PresenceResultFrame page(String stream, int online, List<String> members, String next) {
        return new PresenceResultFrame(stream, online, members, next, null);
    }

    public static PresenceResultFrame error(String stream, Error error) {
        return new PresenceResultFrame(stream, null, null, null, error);
    }

    @Override
    public FrameType frameType() {
        return FrameType.PRESENCE_RESULT;
    }
}
