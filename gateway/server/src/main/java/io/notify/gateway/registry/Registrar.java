package io.notify.gateway.registry;

import io.notify.protocol.stream.StreamId;
import io.notify.registry.lease.NodePresence;
import java.util.concurrent.CompletionStage;

/**
 * The gateway's view of the connection registry (docs/architecture.md, "The registry: one rule, two sides"): this node's connections,
 * registered so the router sends their streams' events to this node's topic. Leases, their
 * renewal, the node's liveness key and re-registration after a Redis outage belong to the
 * implementation; the gateway only says which connections exist.
 *
 * <p>Contract: {@link #register} and {@link #unregister} never block and never throw; their stages
 * may fail (the gateway counts it and keeps serving: Redis is a routing hint, not the truth), and
 * the implementation keeps what it was told so it can re-register after an outage.
 * {@link #unregister} removes only this node's member for that connection.
 *
 * <p>Implementations: {@link RedisRegistrar} (the registry's gateway side,
 * {@code io.notify.registry.lease.NodeRegistry}) and {@link InMemoryRegistrar} (tests).
 */
public interface Registrar {

    /** This start's incarnation: fresh at every process start, part of every registry member. */
    String incarnation();

    /** Sets the liveness key and starts renewing leases; returns when the first liveness write was attempted. */
    void start();

    CompletionStage<Void> register(StreamId stream, String connectionId);

    CompletionStage<Void> unregister(StreamId stream, String connectionId);

    /** Presence: {@code userId} has a subscriber of {@code room} on this node now (docs/protocol.md §8, "Presence"). */
    CompletionStage<Void> presenceJoin(StreamId room, String userId);

    /** Presence: {@code userId} has no subscriber of {@code room} on this node any more. */
    CompletionStage<Void> presenceLeave(StreamId room, String userId);

    /** Presence: one page of the room's members over every node, in user-id order. */
    CompletionStage<NodePresence.Page> presence(StreamId room, String after, int limit);

    /** Stops renewing and removes every registration still held (drain), best effort and bounded. */
    void stop();
}
