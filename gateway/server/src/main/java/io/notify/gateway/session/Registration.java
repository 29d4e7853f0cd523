package io.notify.gateway.session;

import io.notify.common.logging.LogFields;
import io.notify.protocol.stream.StreamId;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection's place on the node, taken when its session opens and given back exactly once when
 * its transport reports it gone: its entry in the session table (live events are held for it from
 * then on), its registration in the registry (live routing), the rooms it joined, and the per-user
 * connection slot its handshake took. The registry is a routing hint: its writes are watched
 * ({@link RegistryWrites}), never awaited.
 */
final class Registration {

    private static final Logger LOG = LoggerFactory.getLogger(Registration.class);

    private Registration() {
    }

    /**
     * Puts {@code session} in the table and sends its registration; a registration that fails runs
     * {@code lost} (the node keeps serving and registers again later; the stream is rechecked soon).
     */
    static void enter(SessionContext ctx, Session session, Runnable lost) {
        ctx.metrics().connectionOpened(session.transport().kind());
        ctx.table().add(session);
        RegistryWrites.watch(ctx, session.id(), ctx.registrar().register(session.stream(), session.id()), "register",
                "registration of " + session.stream(), lost);
    }

    /**
     * The connection is gone with {@code code}: its slot is released, and if it was {@code opened}
     * it leaves the table, {@code rooms} and the registry.
     */
    static void leave(SessionContext ctx, Session session, boolean opened, List<StreamId> rooms, int code) {
        ctx.limiter().release(session.userId());
        if (!opened) {
            return;
        }
        ctx.table().remove(session);
        for (StreamId room : rooms) {
            RoomMembership.leave(ctx, session, room);
        }
        String kind = session.transport().kind();
        ctx.metrics().connectionClosed(kind, code);
        RegistryWrites.watch(ctx, session.id(), ctx.registrar().unregister(session.stream(), session.id()), "unregister", null);
        if (LOG.isDebugEnabled()) {
            try (LogFields f = ctx.logFields(session.id(), session.stream())) {
                LOG.debug("connection {} ({} {}) closed with {}", session.id(), kind, session.stream(), code);
            }
        }
    }
}
