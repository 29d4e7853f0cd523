package io.notify.gateway.transport;

import io.undertow.Undertow;
import java.lang.reflect.Field;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.channels.AcceptingChannel;

/**
 * The XNIO server channel behind an Undertow listener, to stop and restart accepting on it.
 * Undertow's own {@link Undertow.ListenerInfo#suspend()} also closes every HTTP connection in
 * progress — handshakes half done — which is right for a shutdown and wrong for admission control,
 * so the governor needs the channel itself. Undertow keeps it in a private field; if a future
 * Undertow has no such field, there is no channel (the governor is then off, said once).
 */
public final class AcceptingChannels {

    private static final Logger LOG = LoggerFactory.getLogger(AcceptingChannels.class);

    private AcceptingChannels() {
    }

    public static Optional<AcceptingChannel<?>> of(Undertow.ListenerInfo listener) {
        try {
            Field f = Undertow.ListenerInfo.class.getDeclaredField("channel");
            f.setAccessible(true);
            return Optional.of((AcceptingChannel<?>) f.get(listener));
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("cannot reach Undertow's server channel ({}); accepts are not governed by I/O thread lag", e.toString());
            return Optional.empty();
        }
    }
}
