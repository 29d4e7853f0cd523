package io.notify.gateway.rooms;

import io.notify.protocol.stream.StreamId;

/**
 * Who may subscribe to what (docs/protocol.md, "Rooms and broadcast"): the broadcast stream is open
 * to every connection; a room is open to a connection when the node's public patterns
 * ({@code notify.gateway.rooms.public}: the namespaces that need no claim, e.g. {@code news:*}) match
 * its name, or when the token's {@code rooms} claim does. A token without the claim can therefore
 * join public rooms only.
 */
public final class RoomAccess {

    private RoomAccess() {
    }

    /** Null when the subscription is allowed, else why not (the refusal's detail; reason {@code forbidden}). */
    public static String refusal(RoomPatterns publicRooms, StreamId stream, RoomPatterns claim) {
        if (stream.isBroadcast()) {
            return null;
        }
        String room = stream.room();
        if (publicRooms.matches(room) || claim != null && claim.matches(room)) {
            return null;
        }
        return claim == null
                ? "room '" + room + "' is not public and the token has no rooms claim"
                : "the token's rooms claim does not allow room '" + room + "'";
    }
}
