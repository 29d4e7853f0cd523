package io.notify.gateway.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.gateway.config.GatewayConfig;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.event.Recipients;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.ConnectionRef;
import io.notify.registry.lease.NodePresence;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * What a session's joining and leaving a room or {@code b:all} does on the node
 * ({@link Effect.Join}, {@link Effect.Leave}; docs/gateway.md, "Rooms and broadcast"): the node's
 * subscribers of the stream ({@link SessionTable#join}), the node's registration for the room when
 * its first subscriber joins and its last leaves, and presence — the registry's presence set and
 * the room's {@code presence.join} / {@code presence.leave} announcements; and the registry's pages
 * of a room's members ({@link Effect.AskPresence}). Never blocks: the registry writes are watched
 * ({@link RegistryWrites}), not awaited.
 */
final class RoomMembership {

    private RoomMembership() {
    }

    /** Whether the node keeps presence for {@code stream} ({@code rooms.presence}; rooms only). */
    static boolean presenceOn(GatewayConfig config, StreamId stream) {
        return stream.isRoom() && config.rooms().presence().matches(stream.room());
    }

    /**
     * Performs a {@link Effect.Join}, {@link Effect.Leave} or {@link Effect.AskPresence} of
     * {@code member}'s; a presence page (null: none in time) goes to {@code answered} with the request's name.
     */
    static void perform(SessionContext ctx, Session member, Effect effect, BiConsumer<String, NodePresence.Page> answered) {
        if (effect instanceof Effect.Join join) {
            join(ctx, member, join.stream());
        } else if (effect instanceof Effect.Leave leave) {
            leave(ctx, member, leave.stream());
        } else if (effect instanceof Effect.AskPresence ask) {
            ctx.registrar().presence(ask.room(), ask.after(), ask.limit()).toCompletableFuture()
                    .orTimeout(ctx.config().fetchDeadline().toMillis(), TimeUnit.MILLISECONDS)
                    .whenComplete((page, error) -> answered.accept(ask.name(), page));
        }
    }

    /** {@code member} joins the node's subscribers of {@code stream}: live events are held for it from now on. */
    private static void join(SessionContext ctx, Session member, StreamId stream) {
        ctx.table().join(stream, member, () -> registerNode(ctx, member.id(), stream)); // b:all: every node reads notify.all-nodes
        if (presenceOn(ctx.config(), stream)) {
            ctx.table().presenceJoin(stream, member.userId(), () -> presence(ctx, member, stream, true), ctx.metrics()::presenceCoalesced);
        }
    }

    /** {@code member} leaves the node's subscribers of {@code stream} (and its presence). */
    static void leave(SessionContext ctx, Session member, StreamId stream) {
        ctx.table().leave(stream, member, () -> unregisterNode(ctx, member.id(), stream));
        if (presenceOn(ctx.config(), stream)) {
            ctx.table().presenceLeave(stream, member.userId(), ctx.config().rooms().presenceLinger(), ctx.timer(),
                    () -> presence(ctx, member, stream, false));
        }
    }

    /**
     * The user's first connection in {@code room} on this node joined, or its last left: the registry's
     * presence set changes and the room hears {@code presence.join} / {@code presence.leave}, an
     * ephemeral event with {@code {"user": …}}.
     */
    private static void presence(SessionContext ctx, Session member, StreamId room, boolean joined) {
        String userId = member.userId();
        RegistryWrites.watch(ctx, member.id(), joined ? ctx.registrar().presenceJoin(room, userId)
                : ctx.registrar().presenceLeave(room, userId), joined ? "presence_join" : "presence_leave", null);
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("user", userId);
        ctx.announcer().announce(new EventEnvelope(EventIds.generate(), joined ? "presence.join" : "presence.leave",
                Recipients.rooms(room.room()), EventClass.EPHEMERAL, data, null, null, "gateway:" + ctx.config().nodeId()));
    }

    /** The node's first subscriber of {@code room} joined: the registry routes the room here from now on. */
    private static void registerNode(SessionContext ctx, String connection, StreamId room) {
        if (room.isRoom()) {
            RegistryWrites.watch(ctx, connection, ctx.registrar().register(room, ConnectionRef.WHOLE_NODE), "subscribe",
                    "the node's subscription to " + room);
        }
    }

    /** The node's last subscriber of {@code room} left. */
    private static void unregisterNode(SessionContext ctx, String connection, StreamId room) {
        if (room.isRoom()) {
            RegistryWrites.watch(ctx, connection, ctx.registrar().unregister(room, ConnectionRef.WHOLE_NODE), "unsubscribe", null);
        }
    }
}
