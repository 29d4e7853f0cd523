package io.notify.protocol.event;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.notify.protocol.text.IdChars;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code to} object of an event: users, rooms, broadcast, or any mix of them. Each addressee is
 * one stream ({@code u:<user>}, {@code r:<room>}, {@code b:all}) and gets its own copy of the event
 * with its own position. An event with only {@code users} is exactly what v1 had.
 *
 * <p>Guarantees: at least one addressee; at most {@link #MAX_USERS} users and {@link #MAX_ROOMS}
 * rooms, each valid and named once; {@code users} and {@code rooms} are never null (empty when
 * absent on the wire, where they are left out).
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Recipients(List<String> users, List<String> rooms, Boolean broadcast) {

    /** Upper bound of users per event; larger audiences belong to rooms. */
    public static final int MAX_USERS = 1000;
    /** Upper bound of rooms per event. */
    public static final int MAX_ROOMS = 100;
    /** Excludes '{', '}' and '|' which would break Redis hash tags and registry members. */
    public static final Pattern USER_ID = Pattern.compile("^[A-Za-z0-9._:@-]{1,128}$");
    /** A room name: as a user id without '@' (Centrifugo-style "namespace:room" names are fine). */
    public static final Pattern ROOM = Pattern.compile("^[A-Za-z0-9._:-]{1,128}$");
    /** The punctuation {@link #USER_ID} allows besides ASCII letters and digits. */
    public static final String USER_ID_EXTRA = "._:@-";
    /** The punctuation {@link #ROOM} allows besides ASCII letters and digits. */
    public static final String ROOM_EXTRA = "._:-";

    public Recipients {
        users = users == null ? List.of() : List.copyOf(users);
        rooms = rooms == null ? List.of() : List.copyOf(rooms);
        broadcast = Boolean.TRUE.equals(broadcast) ? Boolean.TRUE : null;
        if (users.isEmpty() && rooms.isEmpty() && broadcast == null) {
            throw new IllegalArgumentException("to must name at least one user or room, or set broadcast: true");
        }
        if (users.size() > MAX_USERS) {
            throw new IllegalArgumentException("to.users holds " + users.size() + " users; at most " + MAX_USERS);
        }
        if (rooms.size() > MAX_ROOMS) {
            throw new IllegalArgumentException("to.rooms holds " + rooms.size() + " rooms; at most " + MAX_ROOMS);
        }
        var seen = new HashSet<String>();
        for (String u : users) {
            if (!isUserId(u)) {
                throw new IllegalArgumentException("to.users: invalid user id '" + u + "'");
            }
            if (!seen.add(u)) {
                throw new IllegalArgumentException("to.users: duplicate user id '" + u + "'");
            }
        }
        seen.clear();
        for (String r : rooms) {
            if (!isRoom(r)) {
                throw new IllegalArgumentException("to.rooms: invalid room name '" + r + "'");
            }
            if (!seen.add(r)) {
                throw new IllegalArgumentException("to.rooms: duplicate room name '" + r + "'");
            }
        }
    }

    /** Whether {@code id} matches {@link #USER_ID} (checked without the regex, see {@link IdChars}). */
    public static boolean isUserId(String id) {
        return IdChars.matches(id, 1, 128, USER_ID_EXTRA, false);
    }

    /** Whether {@code name} matches {@link #ROOM} (checked without the regex). */
    public static boolean isRoom(String name) {
        return IdChars.matches(name, 1, 128, ROOM_EXTRA, false);
    }

    public static Recipients users(String... users) {
        return new Recipients(List.of(users), null, null);
    }

    public static Recipients rooms(String... rooms) {
        return new Recipients(null, List.of(rooms), null);
    }

    public static Recipients everyone() {
        return new Recipients(null, null, true);
    }

    /** Whether the event goes to the broadcast stream {@code b:all}. */
    @JsonIgnore
    public boolean isBroadcast() {
        return broadcast != null;
    }

    /**
     * The id of the first addressed stream, as text: {@code u:<first user>}, else {@code r:<first room>},
     * else {@code b:all} (the event's record key; {@code StreamId.addressedBy} lists them all).
     */
    @JsonIgnore
    public String firstStream() {
        if (!users.isEmpty()) {
            return "u:" + users.get(0);
        }
        return rooms.isEmpty() ? "b:all" : "r:" + rooms.get(0);
    }
}
