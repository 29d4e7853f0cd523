package io.notify.registry.lease;

/**
 * What the registry's two-sided ITs (package {@code io.notify.registry}, a node and a router
 * against one Redis) may do to a node beyond its public API.
 */
public final class LeaseTesting {

    private LeaseTesting() {
    }

    /** Stops the node's heartbeat and nothing else, as a crash or a frozen process would. */
    public static void haltHeartbeat(NodeRegistry node) {
        node.haltHeartbeat();
    }
}
