package io.notify.cli.bench.gateway;

import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.ResetFrame;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Many client connections on one {@link Selector} and one thread (no thread per connection): TCP
 * connect from the client's own 127.0.0.x source address, the HTTP handshake, RFC 6455 frames
 * (pings answered at both levels), {@code welcome} → {@code resume} with the client's position.
 * Policy (retries, goals) belongs to the {@link Listener}; this class only reports what happened.
 */
final class NioDriver implements AutoCloseable {

    /** What the driver reports; all calls happen on the driver's thread. */
    interface Listener {
        /** WebSocket: welcome received and resume sent; SSE: 200 received. */
        void established(ClientConn c, long nowNanos);

        void event(ClientConn c, EventFrame e, long nowNanos);

        void reset(ClientConn c, ResetFrame r);

        /** A {@code subscribed} answer (rooms bench). */
        default void subscribed(ClientConn c, io.notify.protocol.frame.SubscribedFrame f) {
        }

        /** The attempt failed or the connection ended; {@code status} is the HTTP status of a refusal or -1. */
        void ended(ClientConn c, String reason, int status, int retryAfterSeconds);
    }

    private final Selector selector;
    private List<InetSocketAddress> targets; // the nodes a new attempt may go to: a load balancer's healthy set
    private final boolean sse;
    private final Listener listener;
    private final ByteBuffer scratch = ByteBuffer.allocate(WsCodec.MAX_PAYLOAD + 128 * 1024);
    private final PriorityQueue<ClientConn> scheduled = new PriorityQueue<>((a, b) -> Long.compare(a.startAtNanos, b.startAtNanos));
    private final Set<ClientConn> attempting = new HashSet<>();
    private final SplittableRandom random = new SplittableRandom();
    private final Inbound inbound;

    NioDriver(List<InetSocketAddress> targets, boolean sse, Listener listener) throws IOException {
        this.selector = Selector.open();
        targets(targets);
        this.sse = sse;
        this.listener = listener;
        this.inbound = new Inbound(this, sse, listener);
    }

    Selector selector() {
        return selector;
    }

    /**
     * The nodes new attempts go to from now on, each attempt to one of them at random (as a load
     * balancer spreads new connections over its healthy nodes); open connections stay where they are.
     */
    void targets(List<InetSocketAddress> nodes) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("no gateway node to connect to");
        }
        targets = List.copyOf(nodes);
    }

    /** Starts an attempt of {@code c} at {@code atNanos} (now or later). */
    void schedule(ClientConn c, long atNanos) {
        c.state = ClientConn.State.WAITING;
        c.startAtNanos = atNanos;
        scheduled.add(c);
    }

    int attempting() {
        return attempting.size();
    }

    /** One turn: waits at most {@code maxWaitMs} for I/O or the next scheduled start, then handles both. */
    void poll(long maxWaitMs) throws IOException {
        long now = System.nanoTime();
        ClientConn next = scheduled.peek();
        long wait = next == null ? maxWaitMs : Math.min(maxWaitMs, Math.max(0, (next.startAtNanos - now) / 1_000_000));
        if (wait <= 0) {
            selector.selectNow();
        } else {
            selector.select(wait);
        }
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
            SelectionKey k = keys.next();
            keys.remove();
            ClientConn c = (ClientConn) k.attachment();
            if (!k.isValid() || c.key != k) {
                continue;
            }
            if (k.isConnectable()) {
                finishConnect(c);
            } else {
                if (k.isWritable()) {
                    flush(c);
                }
                if (c.key == k && k.isValid() && k.isReadable()) {
                    read(c);
                }
            }
        }
        now = System.nanoTime();
        while (!scheduled.isEmpty() && scheduled.peek().startAtNanos - now <= 0) {
            ClientConn c = scheduled.poll();
            if (c.state == ClientConn.State.WAITING) {
                connect(c);
            }
        }
    }

    /** Fails attempts that have not reached {@code established} within {@code timeoutNanos}. */
    void expireAttempts(long timeoutNanos) {
        long now = System.nanoTime();
        for (ClientConn c : attempting.toArray(ClientConn[]::new)) {
            if (now - c.startAtNanos > timeoutNanos) {
                fail(c, "timeout", -1, -1);
            }
        }
    }

    /** Closes the connection of {@code c} without reporting it (the agent decided to). */
    void close(ClientConn c) {
        attempting.remove(c);
        if (c.channel != null) {
            try {
                c.channel.close();
            } catch (IOException ignored) {
                // closing; nothing to do
            }
        }
        c.resetConnection();
    }

    private void connect(ClientConn c) {
        c.attempts++;
        c.startAtNanos = System.nanoTime();
        attempting.add(c);
        try {
            SocketChannel ch = SocketChannel.open();
            c.channel = ch;
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.bind(new InetSocketAddress(c.source, 0));
            c.state = ClientConn.State.CONNECTING;
            c.node = targets.size() == 1 ? targets.get(0) : targets.get(random.nextInt(targets.size()));
            if (ch.connect(c.node)) {
                c.key = ch.register(selector, SelectionKey.OP_READ, c);
                sendHandshake(c);
            } else {
                c.key = ch.register(selector, SelectionKey.OP_CONNECT, c);
            }
        } catch (IOException | RuntimeException e) {
            fail(c, "connect: " + e.getMessage(), -1, -1);
        }
    }

    private void finishConnect(ClientConn c) {
        try {
            c.channel.finishConnect();
            c.key.interestOps(SelectionKey.OP_READ);
            sendHandshake(c);
        } catch (IOException e) {
            fail(c, "connect: " + e.getMessage(), -1, -1);
        }
    }

    private void sendHandshake(ClientConn c) {
        c.state = ClientConn.State.HANDSHAKE;
        String host = c.node.getAddress().getHostAddress();
        if (sse) {
            write(c, HttpHandshake.sse(host, c.node.getPort(), c.token));
        } else {
            c.wsKey = WsCodec.newKey(random.nextLong(), random.nextLong());
            write(c, HttpHandshake.webSocket(host, c.node.getPort(), c.wsKey, c.token));
        }
    }

    void write(ClientConn c, byte[] bytes) {
        if (c.channel == null) {
            return;
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        if (c.pendingOut != null) {
            ByteBuffer joined = ByteBuffer.allocate(c.pendingOut.remaining() + bytes.length);
            joined.put(c.pendingOut).put(buf).flip();
            c.pendingOut = joined;
            return;
        }
        try {
            c.channel.write(buf);
        } catch (IOException e) {
            fail(c, "write: " + e.getMessage(), -1, -1);
            return;
        }
        if (buf.hasRemaining()) {
            c.pendingOut = buf;
            c.key.interestOps(c.key.interestOps() | SelectionKey.OP_WRITE);
        }
    }

    private void flush(ClientConn c) {
        try {
            c.channel.write(c.pendingOut);
        } catch (IOException e) {
            fail(c, "write: " + e.getMessage(), -1, -1);
            return;
        }
        if (!c.pendingOut.hasRemaining()) {
            c.pendingOut = null;
            c.key.interestOps(SelectionKey.OP_READ);
        }
    }

    private void read(ClientConn c) {
        while (true) {
            scratch.clear();
            if (c.pendingIn != null) {
                scratch.put(c.pendingIn);
                c.pendingIn = null;
            }
            int n;
            try {
                n = c.channel.read(scratch);
            } catch (IOException e) {
                fail(c, "read: " + e.getMessage(), -1, -1);
                return;
            }
            boolean full = !scratch.hasRemaining();
            scratch.flip();
            try {
                if (!inbound.consume(c, scratch)) {
                    return;
                }
            } catch (RuntimeException e) {
                fail(c, "protocol: " + e.getMessage(), -1, -1);
                return;
            }
            if (scratch.hasRemaining()) {
                c.pendingIn = new byte[scratch.remaining()];
                scratch.get(c.pendingIn);
            }
            if (n < 0) {
                fail(c, "eof", -1, -1);
                return;
            }
            if (!full) {
                return;
            }
        }
    }

    /** The attempt reached its goal's first step (welcome, or SSE 200): no longer subject to the attempt timeout. */
    void attemptDone(ClientConn c) {
        attempting.remove(c);
    }

    void fail(ClientConn c, String reason, int status, int retryAfter) {
        close(c);
        listener.ended(c, reason, status, retryAfter);
    }

    @Override
    public void close() throws IOException {
        for (SelectionKey k : selector.keys()) {
            k.channel().close();
        }
        selector.close();
    }
}
