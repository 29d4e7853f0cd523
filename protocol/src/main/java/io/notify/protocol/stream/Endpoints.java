package io.notify.protocol.stream;

import io.notify.protocol.text.IdChars;
import java.util.regex.Pattern;

/**
 * Rules for the ids of delivery endpoints: gateway nodes and the connections they hold. Both end up
 * in Kafka topic names ({@code notify.node.<nodeId>}) and Redis registry members
 * ({@code <nodeId>|<incarnation>|<connId>}), so neither may contain '|', '{', '}', ':' or spaces.
 */
public final class Endpoints {

    public static final Pattern NODE_ID = Pattern.compile("^[A-Za-z0-9._-]{1,64}$");
    public static final Pattern CONNECTION_ID = Pattern.compile("^[A-Za-z0-9._-]{1,64}$");

    private Endpoints() {
    }

    /** Returns the node id when valid; otherwise throws naming the rule. */
    public static String requireNodeId(String nodeId) {
        if (!IdChars.matches(nodeId, 1, 64, "._-", false)) {
            throw new IllegalArgumentException("node id must be 1..64 chars of [A-Za-z0-9._-], got '" + Texts.clip(nodeId) + "'");
        }
        return nodeId;
    }

    /** Returns the connection id when valid; otherwise throws naming the rule. */
    public static String requireConnectionId(String connectionId) {
        if (!IdChars.matches(connectionId, 1, 64, "._-", false)) {
            throw new IllegalArgumentException("connection id must be 1..64 chars of [A-Za-z0-9._-], got '"
                    + Texts.clip(connectionId) + "'");
        }
        return connectionId;
    }
}
