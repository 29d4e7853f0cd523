package io.notify.protocol.stream;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The value on {@code notify.node.<nodeId>}: one event for one stream, to be delivered by that
 * gateway node. {@code connections} names the target connections on the node; empty means every
 * local connection of the stream's user. Guarantees: the event belongs to {@code stream}; the
 * connection ids are valid, distinct and at most {@link #MAX_CONNECTIONS}.
 */
@JsonPropertyOrder({"stream", "connections", "event", "routedAt"})
public record DeliveryMessage(StreamId stream, List<String> connections, StreamEvent event, long routedAt) {

    /** More connections than this for one user on one node is a runaway client; the gateway caps far lower. */
    public static final int MAX_CONNECTIONS = 1000;

    public DeliveryMessage {
        if (stream == null) {
            throw new IllegalArgumentException("stream is required");
        }
        if (event == null) {
            throw new IllegalArgumentException("event is required");
        }
        if (!event.stream().equals(stream)) {
            throw new IllegalArgumentException("event belongs to " + event.stream() + ", not to " + stream);
        }
        connections = connections == null ? List.of() : List.copyOf(connections);
        if (connections.size() > MAX_CONNECTIONS) {
            throw new IllegalArgumentException("connections holds " + connections.size() + " ids; at most " + MAX_CONNECTIONS);
        }
        if (new LinkedHashSet<>(connections).size() != connections.size()) {
            throw new IllegalArgumentException("connections holds duplicate ids");
        }
        connections.forEach(Endpoints::requireConnectionId);
        EventFields.checkMillis("routedAt", routedAt);
    }

    /** For every local connection of the stream's user. */
    public static DeliveryMessage toAll(StreamEvent event, long routedAt) {
        return new DeliveryMessage(event.stream(), List.of(), event, routedAt);
    }

    /** For the named connections only. */
    public static DeliveryMessage toConnections(StreamEvent event, Collection<String> connectionIds, long routedAt) {
        return new DeliveryMessage(event.stream(), List.copyOf(connectionIds), event, routedAt);
    }

    @JsonIgnore
    public boolean targetsAllConnections() {
        return connections.isEmpty();
    }
}
