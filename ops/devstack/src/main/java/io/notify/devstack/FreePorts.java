package io.notify.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Picks TCP ports on 127.0.0.1 that are free at the moment of the call.
 *
 * <p>Guarantees: every returned port was bindable on 127.0.0.1 just before it was returned, and the
 * ports of one {@link #pick(int)} call are distinct. It cannot guarantee that nobody else binds the
 * port afterwards; callers that need a concrete port number before starting a server (Kafka must
 * know its listener ports when its config is written) accept that small race.
 */
public final class FreePorts {

    private FreePorts() {
    }

    /** One free port on 127.0.0.1. */
    public static int pick() {
        return pick(1)[0];
    }

    /** {@code count} distinct free ports on 127.0.0.1; all are held open together while choosing. */
    public static int[] pick(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, was " + count);
        }
        Set<ServerSocket> held = new LinkedHashSet<>();
        try {
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket();
                held.add(socket);
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            }
            return held.stream().mapToInt(ServerSocket::getLocalPort).toArray();
        } catch (IOException e) {
            throw new UncheckedIOException("could not find a free port on 127.0.0.1", e);
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // the port was only probed; nothing to release
                }
            }
        }
    }

    /** {@code port} itself, or a free port when it is 0. */
    static int resolve(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in 0..65535, was " + port);
        }
        return port == 0 ? pick() : port;
    }
}
