package io.notify.cli.replay;

import java.util.List;

/**
 * Where one sequenced event went, as recorded by the router: a {@code DeliveryMessage} on a node
 * topic ({@code node} set, {@code connections} empty meaning all of the user's connections there)
 * or an {@code UndeliveredEvent} ({@code reason} set). {@code at} is routedAt or the undelivered
 * time, in epoch ms.
 */
public record Routing(String node, String reason, long at, List<String> connections) {

    public Routing {
        connections = connections == null ? List.of() : List.copyOf(connections);
    }

    /** {@code node:gw-1} or {@code undelivered:no_live_connection}: the form of CSV and table cells. */
    public String label() {
        return node != null ? "node:" + node : "undelivered:" + reason;
    }
}
