package io.notify.fanout.routing;

import io.notify.common.logging.LogFields;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.stream.UndeliveredEvent;
import io.notify.protocol.stream.UndeliveredReason;
import io.notify.registry.RouteLookup;
import io.notify.registry.Routes;
import io.notify.schemas.topic.TopicCatalog;
import io.notify.schemas.trace.HopTrace;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Step 7: routes one stream's event to the gateway nodes holding live connections of it: a user's
 * connections by id, or, for a room or {@code b:all}, every node with a subscriber (the gateway
 * finds its local subscribers itself). {@code b:all} and hot rooms ({@link HotRooms}) go to
 * {@code notify.all-nodes} as one message that every node reads, without a registry lookup.
 *
 * <p>Guarantees: at most one {@link Routed.NodeDelivery} per node per event, naming exactly that
 * node's live connection ids; members the registry reports stale are handed to
 * {@link RouteLookup#removeStale} and never routed. A durable event that reaches no node yields
 * exactly one {@link Routed.Undelivered} ({@code no_live_connection}, or
 * {@code registry_unavailable} when the registry could not answer in time) if it is a user's, and
 * is only counted if it is a room's or the broadcast stream's — it stays resumable
 * from the inbox either way; an ephemeral one is dropped and counted. The wait per event is
 * bounded by the route timeout, and neither a failing registry nor a missing node topic stops
 * the stream thread.
 */
public final class Router implements Processor<StreamId, StreamEvent, StreamId, Routed> {

    private static final Logger LOG = LoggerFactory.getLogger(Router.class);

    private final RouteLookup registry;
    private final NodeTopics nodeTopics;
    private final TopicCatalog topics;
    private final Duration timeout;
    private final Clock clock;
    private final FanoutMetrics metrics;
    private final HotRooms hot;
    private ProcessorContext<StreamId, Routed> context;

    public Router(RouteLookup registry, NodeTopics nodeTopics, TopicCatalog topics, Duration timeout, Clock clock,
                  FanoutMetrics metrics, HotRooms.Settings hotRooms) {
        this.hot = new HotRooms(hotRooms);
        this.registry = registry;
        this.nodeTopics = nodeTopics;
        this.topics = topics;
        this.timeout = timeout;
        this.clock = clock;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<StreamId, Routed> context) {
        this.context = context;
    }

    @Override
    public void process(Record<StreamId, StreamEvent> record) {
        StreamId stream = record.key();
        StreamEvent event = record.value();
        if (event instanceof SequencedEvent s && s.recalled()) {
            return; // the recall's record for the stream log: devices get the recalled frame that follows it
        }
        if (!event.isDurable() && event.expiredAt(clock.millis())) { // ephemeral and no longer true: nobody is sent it
            metrics.expired("route");
            return;
        }
        if (stream.isBroadcast() || stream.isRoom() && hot.onEvent(stream, clock.millis())) {
            toAllNodes(record, stream.isBroadcast() ? "broadcast" : "hot_room");
            return;
        }
        Routes routes = lookup(stream);
        if (!routes.stale().isEmpty()) {
            removeStale(stream, routes);
        }
        if (!routes.available()) {
            miss(record, UndeliveredReason.REGISTRY_UNAVAILABLE);
            return;
        }
        long now = clock.millis();
        if (stream.isRoom() && hot.onNodes(stream, routes.connectionsByNode().size(), now)) {
            toAllNodes(record, "hot_room"); // subscribed on more nodes than the threshold: one message for all of them
            return;
        }
        Record<StreamId, StreamEvent> stamped = record.withHeaders(
                HopTrace.stamped(record.headers(), HopTrace.ROUTE, HopTrace.nowMicros(clock)));
        int sent = 0;
        for (Map.Entry<String, List<String>> node : routes.connectionsByNode().entrySet()) {
            if (!nodeTopics.exists(topics.node(node.getKey()).name())) {
                metrics.nodeTopicMissing("route");
                continue;
            }
            List<String> connections = node.getValue();
            // A room's or b:all's member is the whole node (its subscribers are the gateway's to find);
            // past the cap a per-connection list is pointless: address every local connection instead.
            DeliveryMessage message = !stream.isUser() || connections.size() > DeliveryMessage.MAX_CONNECTIONS
                    ? DeliveryMessage.toAll(event, now)
                    : DeliveryMessage.toConnections(event, connections, now);
            context.forward(stamped.withValue(new Routed.NodeDelivery(node.getKey(), message)));
            metrics.delivered();
            sent++;
        }
        if (sent == 0) {
            miss(record, UndeliveredReason.NO_LIVE_CONNECTION);
        }
    }

    /** One message on notify.all-nodes, which every gateway reads (no registry lookup); skipped, counted, while the topic is missing. */
    private void toAllNodes(Record<StreamId, StreamEvent> record, String why) {
        if (!nodeTopics.exists(topics.allNodes().name())) {
            metrics.nodeTopicMissing("route");
            if (record.value().isDurable()) {
                metrics.unsubscribed(UndeliveredReason.NO_LIVE_CONNECTION); // in the inbox; subscribers' rechecks find it
            }
            return;
        }
        long now = clock.millis();
        context.forward(record.withValue((Routed) new Routed.AllNodes(DeliveryMessage.toAll(record.value(), now)))
                .withHeaders(HopTrace.stamped(record.headers(), HopTrace.ROUTE, HopTrace.nowMicros(clock))));
        metrics.allNodes(why);
    }

    private Routes lookup(StreamId stream) {
        try {
            return registry.lookup(stream, timeout);
        } catch (RuntimeException e) {
            // The contract says lookup never throws; if one does, degrade like an unavailable registry.
            try (LogFields f = LogFields.of(LogFields.STREAM, stream.value())) {
                LOG.warn("registry lookup for {} threw; treating the registry as unavailable", stream, e);
            }
            return Routes.unavailable();
        }
    }

    private void removeStale(StreamId stream, Routes routes) {
        try {
            registry.removeStale(stream, routes.stale());
            metrics.staleRemovals(routes.stale().size());
        } catch (RuntimeException e) {
            try (LogFields f = LogFields.of(LogFields.STREAM, stream.value())) {
                LOG.warn("removing {} stale registry members of {} failed", routes.stale().size(), stream, e);
            }
        }
    }

    private void miss(Record<StreamId, StreamEvent> record, UndeliveredReason reason) {
        StreamEvent event = record.value();
        if (!event.isDurable()) {
            metrics.ephemeralDropped(reason);
            return;
        }
        if (!record.key().isUser()) {
            metrics.unsubscribed(reason); // a room or b:all nobody listens to: subscribers find it in the inbox, no hook to call
            return;
        }
        metrics.undelivered(reason);
        context.forward(record.withValue(new Routed.Undelivered(UndeliveredEvent.of(event, reason, clock.millis()))));
    }
}
