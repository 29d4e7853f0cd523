package io.notify.cli.bench.gateway;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One simulated client of a load agent: a user with a token, a fixed source address, its stored
 * position ({@link ResumeTally}), and the state of its current connection attempt. Owned by the
 * agent's single selector thread; kept small, since an agent holds thousands.
 */
final class ClientConn {

    enum State { IDLE, WAITING, CONNECTING, HANDSHAKE, OPEN }

    final int index;
    final String user;
    final InetAddress source;
    final String token;
    final ResumeTally tally;
    /** The room or b:all this client subscribed to in a rooms bench, and its position there; null: none. */
    String roomStream;
    ResumeTally room;

    State state = State.IDLE;
    SocketChannel channel;
    /** The gateway node of the current attempt or connection. */
    InetSocketAddress node;
    SelectionKey key;
    String wsKey;
    /** Bytes of a partial frame or response head, carried to the next read. */
    byte[] pendingIn;
    /** Bytes the socket did not take yet. */
    ByteBuffer pendingOut;
    /** Fragments of a text message split over continuation frames (rare). */
    ByteArrayOutputStream fragments;

    /** When the current attempt may start (WAITING) or started (later states). */
    long startAtNanos;
    /** Start of the first attempt of the current phase: the client-side start of its resume. */
    long phaseStartNanos;
    int attempts;
    /** The phase this client belongs to now (see {@link AgentPhase#id}). */
    int phaseId;
    /** Whether the client reached its phase's goal (connected, or resumed). */
    boolean done;
    long doneNanos;
    boolean welcomed;
    /** This connection's resume went out right after the upgrade, before welcome (it held a position). */
    boolean resumed;
    long welcomeNanos;
    /** Reconnects in a row that failed while the agent holds its clients connected (reset on welcome). */
    int holdRetries;

    ClientConn(int index, String user, InetAddress source, String token, ResumeTally tally) {
        this.index = index;
        this.user = user;
        this.source = source;
        this.token = token;
        this.tally = tally;
    }

    boolean connectedOrTrying() {
        return state == State.CONNECTING || state == State.HANDSHAKE || state == State.OPEN;
    }

    /** Forgets the current connection's buffers (after a close). */
    void resetConnection() {
        state = State.IDLE;
        channel = null;
        key = null;
        wsKey = null;
        pendingIn = null;
        pendingOut = null;
        fragments = null;
        welcomed = false;
        resumed = false;
    }
}
