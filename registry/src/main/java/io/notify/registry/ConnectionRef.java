package io.notify.registry;

import io.notify.schemas.stream.Endpoints;
import java.util.Optional;

/**
 * One registered connection: the registry member {@code <nodeId>|<incarnation>|<connectionId>}.
 * The incarnation (fresh at every gateway start) fences a restarted node's old registrations:
 * they name the old incarnation and are dropped by the router.
 */
public record ConnectionRef(String nodeId, String incarnation, String connectionId) {

    public ConnectionRef {
        Endpoints.requireNodeId(nodeId);
        Endpoints.requireConnectionId(incarnation);
        Endpoints.requireConnectionId(connectionId);
    }

    public String member() {
        return nodeId + '|' + incarnation + '|' + connectionId;
    }

    /** Parses a registry member; throws IllegalArgumentException naming the bad member. */
    public static ConnectionRef parse(String member) {
        int a = member.indexOf('|');
        int b = a < 0 ? -1 : member.indexOf('|', a + 1);
        if (a <= 0 || b <= a + 1 || b == member.length() - 1 || member.indexOf('|', b + 1) >= 0) {
            throw new IllegalArgumentException("registry member must be <node>|<incarnation>|<conn>, got '" + member + "'");
        }
        return new ConnectionRef(member.substring(0, a), member.substring(a + 1, b), member.substring(b + 1));
    }

    /**
     * Parses a registry member read from Redis, where a foreign or corrupt member must not break a
     * lookup: empty unless it is exactly {@code <node>|<incarnation>|<conn>} with valid ids.
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
