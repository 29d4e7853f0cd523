package io.notify.gateway.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.gateway.rooms.RoomAccess;
import io.notify.gateway.rooms.RoomPatterns;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.event.Recipients;
import io.notify.protocol.frame.PresenceFrame;
import io.notify.protocol.frame.PresenceResultFrame;
import io.notify.protocol.frame.SseCursor;
import io.notify.protocol.frame.SubscribeRefusedFrame;
import io.notify.protocol.frame.SubscribedFrame;
import io.notify.protocol.frame.UnsubscribedFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.ConnectionRef;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The rooms and {@code b:all} one session is subscribed to (docs/gateway.md, "Rooms and broadcast"):
 * a {@link StreamSync} per stream, in subscribe order (the SSE cursor lists them so), the node-level
 * registrations of its first and last subscriber ({@link SessionTable#join}), and presence. Made at a
 * session's first subscribe; every method runs under the session's lock.
 */
final class Subscriptions {

    private final Session session;
    private final SessionContext ctx;
    private final RoomPatterns claim;
    private final Map<StreamId, StreamSync> streams = new LinkedHashMap<>(4);

    Subscriptions(Session session, SessionContext ctx, RoomPatterns claim) {
        this.session = session;
        this.ctx = ctx;
        this.claim = claim;
    }

    /** The sync of a subscribed stream; null when not subscribed. */
    StreamSync get(StreamId stream) {
        return streams.get(stream);
    }

    /** Whether {@code sync} is still the one of its stream (it is not once unsubscribed). */
    boolean holds(StreamSync sync) {
        return streams.get(sync.stream()) == sync;
    }

    boolean isEmpty() {
        return streams.isEmpty();
    }

    int size() {
        return streams.size();
    }

    /** The sweeper's tick: each stream's periodic recheck. */
    void tick(long nowNanos) {
        for (StreamSync s : streams.values()) {
            s.tick(nowNanos);
        }
    }

    /**
     * The composite SSE cursor ({@code SseCursor}) of the connection: its own stream {@code own} at
     * {@code ownAt}, then each subscribed stream at its position, {@code positioned} at
     * {@code position} instead; a stream without a position is left out.
     */
    String cursor(StreamId own, Position ownAt, StreamId positioned, Position position) {
        StringBuilder cursor = new StringBuilder(32 * (streams.size() + 1));
        Position o = positioned.equals(own) ? position : ownAt;
        if (o != null) {
            SseCursor.append(cursor, own, o);
        }
        for (Map.Entry<StreamId, StreamSync> e : streams.entrySet()) {
            Position p = e.getKey().equals(positioned) ? position : e.getValue().position();
            if (p != null) {
                SseCursor.append(cursor, e.getKey(), p);
            }
        }
        return cursor.toString();
    }

    /** The connection is gone: leaves every stream (and its presence). */
    void leaveAll() {
        for (StreamId s : streams.keySet()) {
            leave(s);
        }
        streams.clear();
    }

    /**
     * A {@code subscribe} (or a room position in {@code resume}): checks the name, the permission and
     * the bound, answering {@code subscribe_refused} for each; else joins the node's subscribers of
     * the stream (live events are held from now on), reads the head, answers {@code subscribed} with
     * it, and then replays from {@code from} (or starts at the head when null) and goes live.
     */
    void subscribe(String name, Position from) {
        if (!StreamId.isValid(name) || name.startsWith(StreamId.USER_PREFIX)) {
            refuse(name, SubscribeRefusedFrame.Reason.BAD_NAME, "not a room stream (r:<room>, 1..128 chars of [A-Za-z0-9._:-]) or b:all");
            return;
        }
        StreamId target = StreamId.parse(name);
        StreamSync existing = streams.get(target);
        if (existing != null) {
            ctx.metrics().subscription("repeated");
            session.send(OutboundFrame.control(new SubscribedFrame(target, existing.position()))); // changes nothing
            return;
        }
        String forbidden = RoomAccess.refusal(ctx.config().rooms().publicRooms(), target, claim);
        if (forbidden != null) {
            refuse(name, SubscribeRefusedFrame.Reason.FORBIDDEN, forbidden);
            return;
        }
        int max = ctx.config().rooms().maxSubscriptions();
        if (streams.size() >= max) { // 0: rooms are off on this node
            ctx.metrics().limitHit("subscriptions");
            refuse(name, SubscribeRefusedFrame.Reason.LIMIT, "this connection holds " + max + " subscriptions, the node's maximum");
            return;
        }
        StreamSync joined = new StreamSync(session, target, ctx);
        streams.put(target, joined);
        ctx.table().join(target, session, () -> registerNode(target)); // b:all: every node reads notify.all-nodes, no registration
        ctx.metrics().subscription("subscribed");
        if (presenceOn(target)) {
            ctx.table().presenceJoin(target, session.userId(), () -> presence(target, true), ctx.metrics()::presenceCoalesced);
        }
        joined.readAnchor(() -> session.activeLocked() && streams.get(target) == joined, () -> {
            Position head = joined.anchorHead();
            OutboundFrame subscribed = OutboundFrame.control(new SubscribedFrame(target, head));
            if (!(head == null ? session.send(subscribed) : session.send(subscribed, target, head))) {
                return;
            }
            if (from == null) {
                joined.startFresh();
            } else {
                joined.resumeFrom(from);
                joined.fetchNow();
            }
        });
    }

    private void refuse(String name, SubscribeRefusedFrame.Reason reason, String detail) {
        ctx.metrics().subscription("refused_" + reason.wireName());
        session.send(OutboundFrame.control(new SubscribeRefusedFrame(name, reason, detail)));
    }

    /** An {@code unsubscribe}: leaves the stream (idempotent) and answers {@code unsubscribed}. */
    void unsubscribe(String name) {
        if (!StreamId.isValid(name) || name.startsWith(StreamId.USER_PREFIX)) {
            refuse(name, SubscribeRefusedFrame.Reason.BAD_NAME, "not a room stream (r:<room>) or b:all");
            return;
        }
        StreamId target = StreamId.parse(name);
        if (streams.remove(target) != null) {
            leave(target);
            ctx.metrics().subscription("unsubscribed");
        }
        session.send(OutboundFrame.control(new UnsubscribedFrame(target)));
    }

    /** Leaves the node's subscribers of {@code room} (and its presence). */
    private void leave(StreamId room) {
        ctx.table().leave(room, session, () -> unregisterNode(room));
        if (presenceOn(room)) {
            ctx.table().presenceLeave(room, session.userId(), ctx.config().rooms().presenceLinger(), ctx.timer(),
                    () -> presence(room, false));
        }
    }

    private boolean presenceOn(StreamId stream) {
        return stream.isRoom() && ctx.config().rooms().presence().matches(stream.room());
    }

    /**
     * The user's first connection in {@code room} on this node joined, or its last left: the registry's
     * presence set changes and the room hears {@code presence.join} / {@code presence.leave}, an
     * ephemeral event with {@code {"user": …}}.
     */
    private void presence(StreamId room, boolean joined) {
        String userId = session.userId();
        RegistryWrites.watch(ctx, session.id(), joined ? ctx.registrar().presenceJoin(room, userId)
                : ctx.registrar().presenceLeave(room, userId), joined ? "presence_join" : "presence_leave", null);
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("user", userId);
        ctx.announcer().announce(new EventEnvelope(EventIds.generate(), joined ? "presence.join" : "presence.leave",
                Recipients.rooms(room.room()), EventClass.EPHEMERAL, data, null, null, "gateway:" + ctx.config().nodeId()));
    }

    /** A {@code presence} request: one page of the room's members over every node, answered when the registry answers. */
    void presence(PresenceFrame request) {
        String name = request.stream();
        StreamId room = StreamId.isValid(name) && name.startsWith(StreamId.ROOM_PREFIX) ? StreamId.parse(name) : null;
        if (room == null || !streams.containsKey(room)) {
            session.send(OutboundFrame.control(PresenceResultFrame.error(name, PresenceResultFrame.Error.NOT_SUBSCRIBED)));
            return;
        }
        if (!presenceOn(room)) {
            session.send(OutboundFrame.control(PresenceResultFrame.error(name, PresenceResultFrame.Error.OFF)));
            return;
        }
        int max = ctx.config().rooms().presencePageMax();
        int limit = request.limit() == null ? max : Math.min(request.limit(), max);
        if (request.limit() != null && request.limit() > max) {
            ctx.metrics().limitHit("presence_page"); // answered with the node's maximum page, and next to go on
        }
        ctx.metrics().presenceRequest();
        ctx.registrar().presence(room, request.after(), limit).toCompletableFuture()
                .orTimeout(ctx.config().fetchDeadline().toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((page, error) -> session.runLocked(() -> session.send(OutboundFrame.control(page != null
                        ? PresenceResultFrame.page(name, page.online(), page.members(), page.next())
                        : PresenceResultFrame.error(name, PresenceResultFrame.Error.UNAVAILABLE)))));
    }

    /** The node's first subscriber of {@code room} joined: the registry routes the room here from now on. */
    private void registerNode(StreamId room) {
        if (!room.isRoom()) {
            return;
        }
        RegistryWrites.watch(ctx, session.id(), ctx.registrar().register(room, ConnectionRef.WHOLE_NODE), "subscribe",
                "the node's subscription to " + room);
    }

    /** The node's last subscriber of {@code room} left. */
    private void unregisterNode(StreamId room) {
        if (!room.isRoom()) {
            return;
        }
        RegistryWrites.watch(ctx, session.id(), ctx.registrar().unregister(room, ConnectionRef.WHOLE_NODE), "unsubscribe", null);
    }

}
