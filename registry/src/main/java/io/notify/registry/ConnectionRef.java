package io.notify.registry;

import io.notify.protocol.stream.Endpoints;
import java.util.Optional;

/**
 * One registered connection: the registry member {@code <nodeId>|<incarnation>|<connectionId>}; or,
 * in a room's set, a whole node: {@code <nodeId>|<incarnation>} ({@link #WHOLE_NODE} as the
 * connection id), written while the node has at least one subscriber of the room.
 * The incarnation (fresh at every gateway start) fences a restarted node's old registrations:
 * they name the old incarnation and are dropped by the router.
 */
public record ConnectionRef(String nodeId, String incarnation, String connectionId) {

    /** The connection id of a node-level member: every local subscriber of the stream. Never a real id ('*' is not an id character). */
    public static final String WHOLE_NODE = "*";

    public ConnectionRef {
        Endpoints.requireNodeId(nodeId);
        Endpoints.requireConnectionId(incarnation);
        if (!WHOLE_NODE.equals(connectionId)) {
            Endpoints.requireConnectionId(connectionId);
        }
    }

    /** The node-level member of a room's set. */
    public static ConnectionRef wholeNode(String nodeId, String incarnation) {
        return new ConnectionRef(nodeId, incarnation, WHOLE_NODE);
    }

    public boolean isWholeNode() {
        return WHOLE_NODE.equals(connectionId);
    }

    public String member() {
        return isWholeNode() ? nodeId + '|' + incarnation : nodeId + '|' + incarnation + '|' + connectionId;
    }

    /** Parses a registry member; throws IllegalArgumentException naming the bad member. */
    public static ConnectionRef parse(String member) {
        int a = member.indexOf('|');
        int b = a < 0 ? -1 : member.indexOf('|', a + 1);
        if (a > 0 && b < 0 && a < member.length() - 1) {
            return wholeNode(member.substring(0, a), member.substring(a + 1)); // node|incarnation
        }
        if (a <= 0 || b <= a + 1 || b == member.length() - 1 || member.indexOf('|', b + 1) >= 0) {
            throw new IllegalArgumentException("registry member must be <node>|<incarnation>|<conn> or <node>|<incarnation>, got '"
                    + member + "'");
        }
        String connection = member.substring(b + 1);
        if (WHOLE_NODE.equals(connection)) {
            throw new IllegalArgumentException("a whole node's member is <node>|<incarnation>, got '" + member + "'");
        }
        return new ConnectionRef(member.substring(0, a), member.substring(a + 1, b), connection);
    }

    /**
     * Parses a registry member read from Redis, where a foreign or corrupt member must not break a
     * lookup: empty unless it is exactly {@code <node>|<incarnation>|<conn>} or {@code <node>|<incarnation>} with valid ids.
     */
    public static Optional<ConnectionRef> tryParse(String member) {
        if (member == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(parse(member));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
