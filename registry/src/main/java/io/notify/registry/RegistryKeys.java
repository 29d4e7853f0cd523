package io.notify.registry;

import io.notify.protocol.stream.StreamId;

/**
 * Redis key names of the registry (docs/architecture.md, "The registry: one rule, two sides"). Connection sets are hash-tagged by
 * stream ({@code nf:conns:{u:42}}) so Redis Cluster keeps each user's set on one slot; every
 * key may carry a prefix (tests use a unique one, production none).
 */
public record RegistryKeys(String prefix) {

    public RegistryKeys {
        if (prefix == null || prefix.contains("{") || prefix.contains("}")) {
            throw new IllegalArgumentException("registry key prefix must not contain hash-tag braces: " + prefix);
        }
    }

    public static RegistryKeys production() {
        return new RegistryKeys("");
    }

    /**
     * Sorted set of where a stream is held, score = lease expiry ms: for a user stream its
     * connections ({@code nf:conns:{u:42}}, member {@code node|incarnation|conn}); for a room the
     * nodes with at least one subscriber ({@code nf:subs:{r:chat-1}}, member {@code node|incarnation},
     * {@link ConnectionRef#WHOLE_NODE}); the same for the broadcast stream ({@code nf:subs:{b:all}}).
     */
    public String connections(StreamId stream) {
        return prefix + (stream.isUser() ? "nf:conns:{" : "nf:subs:{") + stream.value() + "}";
    }

    /**
     * Sorted set of who is in a room, for presence: member {@code <userId>|<node>|<incarnation>} per
     * user and node with a subscriber of the room there, score = lease expiry ms. Never read by routers.
     */
    public String presence(StreamId room) {
        return prefix + "nf:presence:{" + room.value() + "}";
    }

    /** A node's liveness key: value = its current incarnation, short TTL refreshed by the node. */
    public String alive(String nodeId) {
        return prefix + "nf:alive:" + nodeId;
    }
}
