package io.notify.devstack;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks TCP ports on 127.0.0.1 that are free at the moment of the call.
 *
 * <p>Guarantees: every returned port was bindable on 127.0.0.1 just before it was returned, and the
 * ports of one {@link #pick(int)} call are distinct. It cannot guarantee that nobody else binds the
 * port afterwards; callers that need a concrete port number before starting a server (Kafka must
 * know its listener ports when its config is written) accept that small race.
 *
 * <p>Ports are drawn at random <em>below</em> the kernel's ephemeral range
 * ({@code /proc/sys/net/ipv4/ip_local_port_range}, from {@value #LOWEST} up), where no outgoing
 * connection and no server bound to port 0 ever lands: a port picked early and bound seconds later
 * (a gateway whose port the browser origins must name, started after fanout-streams has opened
 * dozens of Kafka and Redis connections) is not taken meanwhile as some client socket's local port,
 * which is what made {@code bind} fail with "Address already in use" once in a full build. Where that
 * range cannot be read or leaves no room, the kernel's choice (port 0) is used, as before.
 *
 * <p>Every port drawn so is also <em>claimed</em> for the rest of this JVM's life: a lock on a file named
 * after it in a directory every process of the user shares ({@link #CLAIMS}). Two processes picking at
 * once (two modules built side by side under {@code -T 2}: a bench's broker and another module's
 * gateway) so never hand out the same port, which the bind probe alone cannot tell them: a port
 * another process picked but has not bound yet is free to bind. The lock goes with the process that
 * held it, kill -9 included; the port is not handed out again by this JVM.
 */
public final class FreePorts {

    /** The lowest port handed out: above the well-known ports and the usual fixed dev ports (8080, 9092, ...). */
    static final int LOWEST = 20_000;
    private static final int ATTEMPTS = 200;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** Where ports are claimed across processes: one lock file per port. */
    static final Path CLAIMS = Path.of(System.getProperty("java.io.tmpdir"), "notify-ports-" + System.getProperty("user.name"));
    /**
     * The ports this JVM claimed, each with the open channel whose lock claims it. A claimed port's
     * file is never opened again here: closing any channel of a file drops every lock the process
     * holds on it (POSIX record locks).
     */
    private static final Map<Integer, FileChannel> CLAIMED = new HashMap<>();

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
            int below = ephemeralStart();
            for (int attempt = 0; held.size() < count && attempt < ATTEMPTS && below - LOWEST > 10 * count; attempt++) {
                ServerSocket socket = tryBind(ThreadLocalRandom.current().nextInt(LOWEST, below));
                if (socket != null && claim(socket.getLocalPort())) {
                    held.add(socket);
                } else if (socket != null) {
                    socket.close(); // free to bind, but another process (or this one) picked it
                }
            }
            while (held.size() < count) {
                ServerSocket socket = tryBind(0); // no room below the ephemeral range: the kernel's choice
                if (socket == null) {
                    throw new IOException("no port could be bound on 127.0.0.1");
                }
                held.add(socket);
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

    /**
     * {@code count} distinct ports {@code p} on 127.0.0.1 such that {@code p} and {@code p + offset} were
     * both free, all below the ephemeral range: for servers that also bind a second port at a fixed
     * offset (a Redis Cluster node's bus port is its port + 10000).
     */
    public static int[] pickPaired(int count, int offset) {
        if (count < 1 || offset < 1) {
            throw new IllegalArgumentException("count and offset must be >= 1, were " + count + ", " + offset);
        }
        int below = ephemeralStart() - offset;
        if (below - LOWEST <= 10 * count) {
            throw new IllegalStateException("no room for " + count + " port pairs " + offset + " apart between " + LOWEST
                    + " and the ephemeral range (" + ephemeralStart() + ")");
        }
        Set<ServerSocket> held = new LinkedHashSet<>();
        int[] ports = new int[count];
        int found = 0;
        try {
            for (int attempt = 0; found < count && attempt < ATTEMPTS; attempt++) {
                int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
                ServerSocket first = tryBind(port);
                if (first == null) {
                    continue;
                }
                if (!claim(port) || !claim(port + offset)) {
                    first.close();
                    continue;
                }
                held.add(first);
                ServerSocket second = tryBind(port + offset);
                if (second != null) {
                    held.add(second);
                    ports[found++] = port;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not probe ports on 127.0.0.1", e);
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // the port was only probed; nothing to release
                }
            }
        }
        if (found < count) {
            throw new IllegalStateException("found only " + found + " of " + count + " free port pairs " + offset + " apart");
        }
        return ports;
    }

    /**
     * Claims {@code port} for this JVM across the processes of this user: false when another process,
     * or this one, claimed it before. Where the claims directory cannot be used, every port counts as
     * claimed (the bind probe alone decides, as before).
     */
    static synchronized boolean claim(int port) {
        if (CLAIMED.containsKey(port)) {
            return false;
        }
        FileChannel channel = null;
        try {
            Files.createDirectories(CLAIMS);
            channel = FileChannel.open(CLAIMS.resolve(port + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                return false;
            }
            CLAIMED.put(port, channel);
            return true;
        } catch (OverlappingFileLockException ownedHere) {
            closeQuietly(channel);
            return false;
        } catch (IOException | SecurityException unusable) {
            closeQuietly(channel);
            return true;
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing was claimed through it
            }
        }
    }

    /** A socket bound to {@code port} on 127.0.0.1 (0: any), or null when that port is taken. */
    private static ServerSocket tryBind(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        try {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return socket;
        } catch (IOException taken) {
            socket.close();
            if (port == 0) {
                throw taken;
            }
            return null;
        }
    }

    /** The first port of the kernel's ephemeral range, or {@link #LOWEST} (no room: port 0 is used) when it cannot be read. */
    static int ephemeralStart() {
        try {
            // a stream, not Files.readString: on a procfs sysctl file (size 0) that read only "3" of "32768\t60999" here
            try (InputStream in = Files.newInputStream(EPHEMERAL_RANGE)) {
                return ephemeralStart(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
            }
        } catch (IOException | RuntimeException unreadable) {
            return LOWEST;
        }
    }

    /** The first number of an {@code ip_local_port_range} text ("32768\t60999"). */
    static int ephemeralStart(String range) {
        return Integer.parseInt(range.trim().split("\\s+")[0]);
    }

    /** {@code port} itself, or a free port when it is 0. */
    static int resolve(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in 0..65535, was " + port);
        }
        return port == 0 ? pick() : port;
    }
}
