package io.notify.gateway.session;

import io.notify.gateway.resume.FetchResult;
import io.notify.gateway.rooms.RoomAccess;
import io.notify.gateway.rooms.RoomPatterns;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.gateway.transport.Transport;
import io.notify.protocol.frame.ClientFrame;
import io.notify.protocol.frame.PresenceFrame;
import io.notify.protocol.frame.PresenceResultFrame;
import io.notify.protocol.frame.SubscribeFrame;
import io.notify.protocol.frame.SubscribeRefusedFrame;
import io.notify.protocol.frame.SubscribedFrame;
import io.notify.protocol.frame.UnsubscribeFrame;
import io.notify.protocol.frame.UnsubscribedFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.lease.NodePresence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The rooms and {@code b:all} one session is subscribed to (docs/gateway.md, "Rooms and broadcast"):
 * a {@link StreamSync} per stream, in subscribe order, and the answers to {@code subscribe},
 * {@code unsubscribe} and {@code presence}. Like {@link StreamSync} it decides and counts, and
 * returns {@link Effect}s for the rest: joining and leaving the node's subscribers of a stream
 * ({@link RoomMembership}), the head read, the registry's presence page, the frames. It is also where
 * the connection stands in each of its streams, its own first ({@link Transport.Positions}: SSE's
 * composite cursor). Made at a session's first room request; its session calls it under its lock.
 */
final class Subscriptions implements Transport.Positions {

    private final SessionContext ctx; // the node's settings and metrics: nothing here calls its collaborators
    private final String connection;
    private final RoomPatterns claim;
    private final StreamSync own; // the connection's own stream: first among its positions
    private final Map<StreamId, StreamSync> streams = new LinkedHashMap<>(4);

    Subscriptions(SessionContext ctx, String connection, RoomPatterns claim, StreamSync own) {
        this.ctx = ctx;
        this.connection = connection;
        this.claim = claim;
        this.own = own;
    }

    /** The sync of a subscribed stream; null when not subscribed. */
    StreamSync get(StreamId stream) {
        return streams.get(stream);
    }

    @Override
    public int streams() {
        return streams.size() + 1;
    }

    @Override
    public void forEach(BiConsumer<StreamId, Position> each) {
        each.accept(own.stream(), own.position());
        for (Map.Entry<StreamId, StreamSync> e : streams.entrySet()) {
            each.accept(e.getKey(), e.getValue().position());
        }
    }

    /** The sweeper's tick: each stream's periodic recheck. */
    List<Effect> tick(long nowNanos) {
        List<Effect> out = null;
        for (StreamSync s : streams.values()) {
            List<Effect> due = s.tick(nowNanos);
            if (!due.isEmpty()) {
                out = out == null ? new ArrayList<>() : out;
                out.addAll(due);
            }
        }
        return out == null ? List.of() : out;
    }

    /** The connection is gone: the streams it leaves (every one), and none is held any more. */
    List<StreamId> leaveAll() {
        List<StreamId> left = new ArrayList<>(streams.keySet());
        streams.clear();
        return left;
    }

    /** A {@code subscribe}, {@code unsubscribe} or {@code presence} frame. */
    List<Effect> request(ClientFrame frame) {
        if (frame instanceof SubscribeFrame subscribe) {
            return subscribe(subscribe.stream(), subscribe.position().orElse(null));
        }
        return frame instanceof UnsubscribeFrame unsubscribe ? unsubscribe(unsubscribe.stream()) : presence((PresenceFrame) frame);
    }

    /**
     * A {@code subscribe} (or a room position in {@code resume}): checks the name, the permission and
     * the bound, answering {@code subscribe_refused} for each; else joins the node's subscribers of
     * the stream (live events are held from now on) and reads its head; the answer
     * ({@link #anchored}) then says {@code subscribed} and replays from {@code from} (or starts at the
     * head when null) and goes live.
     */
    List<Effect> subscribe(String name, Position from) {
        if (!StreamId.isValid(name) || name.startsWith(StreamId.USER_PREFIX)) {
            return refuse(name, SubscribeRefusedFrame.Reason.BAD_NAME, "not a room stream (r:<room>, 1..128 chars of [A-Za-z0-9._:-]) or b:all");
        }
        StreamId target = StreamId.parse(name);
        StreamSync existing = streams.get(target);
        if (existing != null) {
            ctx.metrics().subscription("repeated");
            return List.of(Effect.Send.plain(OutboundFrame.control(new SubscribedFrame(target, existing.position())))); // changes nothing
        }
        String forbidden = RoomAccess.refusal(ctx.config().rooms().publicRooms(), target, claim);
        if (forbidden != null) {
            return refuse(name, SubscribeRefusedFrame.Reason.FORBIDDEN, forbidden);
        }
        int max = ctx.config().rooms().maxSubscriptions();
        if (streams.size() >= max) { // 0: rooms are off on this node
            ctx.metrics().limitHit("subscriptions");
            return refuse(name, SubscribeRefusedFrame.Reason.LIMIT, "this connection holds " + max + " subscriptions, the node's maximum");
        }
        StreamSync joined = new StreamSync(target, from, connection, ctx);
        streams.put(target, joined);
        ctx.metrics().subscription("subscribed");
        return List.of(new Effect.Join(target), new Effect.Fetch(joined, joined.anchorRequest(), true));
    }

    /** The head read of a subscribed stream answered: {@code subscribed} with the head, then its replay or live start. */
    List<Effect> anchored(StreamSync joined, FetchResult result) {
        joined.anchored(result);
        Position head = joined.anchorHead();
        OutboundFrame subscribed = OutboundFrame.control(new SubscribedFrame(joined.stream(), head));
        List<Effect> out = new ArrayList<>();
        out.add(head == null ? Effect.Send.plain(subscribed) : Effect.Send.positioned(subscribed, joined.stream(), head));
        out.addAll(joined.startSubscribed());
        return out;
    }

    private List<Effect> refuse(String name, SubscribeRefusedFrame.Reason reason, String detail) {
        ctx.metrics().subscription("refused_" + reason.wireName());
        return List.of(Effect.Send.plain(OutboundFrame.control(new SubscribeRefusedFrame(name, reason, detail))));
    }

    /** An {@code unsubscribe}: leaves the stream (idempotent) and answers {@code unsubscribed}. */
    private List<Effect> unsubscribe(String name) {
        if (!StreamId.isValid(name) || name.startsWith(StreamId.USER_PREFIX)) {
            return refuse(name, SubscribeRefusedFrame.Reason.BAD_NAME, "not a room stream (r:<room>) or b:all");
        }
        StreamId target = StreamId.parse(name);
        Effect.Send answer = Effect.Send.plain(OutboundFrame.control(new UnsubscribedFrame(target)));
        if (streams.remove(target) == null) {
            return List.of(answer);
        }
        ctx.metrics().subscription("unsubscribed");
        return List.of(new Effect.Leave(target), answer);
    }

    /** A {@code presence} request: one page of the room's members over every node, answered when the registry answers. */
    private List<Effect> presence(PresenceFrame request) {
        String name = request.stream();
        StreamId room = StreamId.isValid(name) && name.startsWith(StreamId.ROOM_PREFIX) ? StreamId.parse(name) : null;
        if (room == null || !streams.containsKey(room)) {
            return List.of(Effect.Send.plain(presenceResult(name, null, PresenceResultFrame.Error.NOT_SUBSCRIBED)));
        }
        if (!RoomMembership.presenceOn(ctx.config(), room)) {
            return List.of(Effect.Send.plain(presenceResult(name, null, PresenceResultFrame.Error.OFF)));
        }
        int max = ctx.config().rooms().presencePageMax();
        int limit = request.limit() == null ? max : Math.min(request.limit(), max);
        if (request.limit() != null && request.limit() > max) {
            ctx.metrics().limitHit("presence_page"); // answered with the node's maximum page, and next to go on
        }
        ctx.metrics().presenceRequest();
        return List.of(new Effect.AskPresence(name, room, request.after(), limit));
    }

    /** The {@code presence_result} for {@code name}: the registry's page, else {@code error}. */
    static OutboundFrame presenceResult(String name, NodePresence.Page page, PresenceResultFrame.Error error) {
        return OutboundFrame.control(page != null
                ? PresenceResultFrame.page(name, page.online(), page.members(), page.next())
                : PresenceResultFrame.error(name, error));
    }
}
