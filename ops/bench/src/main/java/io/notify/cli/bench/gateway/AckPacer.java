package io.notify.cli.bench.gateway;

import io.notify.protocol.frame.WsOpcode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A load agent's acks, sent as the SDKs send them (docs/protocol.md, "ack"): cumulative — the
 * client's position in its user stream, i.e. the highest seq its app processed — and at most one
 * ack frame per connection and stream per interval. As with the Java SDK's ack timer, the first
 * durable event after an ack starts the wait, and the frame goes out one interval later with the
 * highest seq by then; a connection that ended meanwhile drops it (the next event starts a new
 * wait). Only the user stream is acked: rooms and {@code b:all} acks become no receipt.
 *
 * <p>Cheap, since the agents share the cores with what they measure: no timer per connection but
 * one sweep per agent. Every wait has the same length, so the connections waiting form a FIFO in
 * due order (a ring of client offsets and due times) and a sweep looks at its head only; the frame
 * is written straight into its masked bytes, without a String or a JSON encoder. Off until
 * {@link #set}; the arrays are allocated when first turned on. Single-threaded (the agent's
 * selector thread).
 */
final class AckPacer {

    /** Where an ack frame goes: the agent's {@link NioDriver#write}. */
    interface Sink {
        void write(ClientConn c, byte[] frame);
    }

    private static final byte[] HEAD = "{\"t\":\"ack\",\"stream\":\"u:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SEQ = "\",\"seq\":".getBytes(StandardCharsets.US_ASCII);

    private final List<ClientConn> clients;
    private final int first;
    private final Sink sink;
    private final SplittableRandom random = new SplittableRandom();
    private long intervalNanos; // 0: off
    /** Per client (by offset from {@link #first}): the seq and epoch of its last ack, and whether it waits in the ring. */
    private long[] acked;
    private String[] ackedEpoch;
    private boolean[] waiting;
    /** The ring: client offsets in due order, and their due times. */
    private int[] queue;
    private long[] due;
    private int head;
    private int size;
    private long sent;

    AckPacer(List<ClientConn> clients, Sink sink) {
        this.clients = clients;
        this.first = clients.isEmpty() ? 0 : clients.get(0).index;
        this.sink = sink;
    }

    /** The agent's command {@code acks on <intervalMs>} or {@code acks off}; returns the reply line. */
    String command(String[] args) {
        if (args.length == 2 && args[1].equals("off")) {
            set(0);
            return "acks off";
        }
        if (args.length == 3 && args[1].equals("on") && args[2].matches("[1-9][0-9]{0,6}")) {
            set(Long.parseLong(args[2]) * 1_000_000L);
            return "acks on";
        }
        return "error usage: acks on <intervalMs>|off";
    }

    /** Acks at most once per {@code intervalNanos} per connection from now on; 0 turns them off and drops those waiting. */
    void set(long intervalNanos) {
        this.intervalNanos = Math.max(0, intervalNanos);
        if (intervalNanos > 0 && acked == null) {
            int n = clients.size();
            acked = new long[n];
            ackedEpoch = new String[n];
            waiting = new boolean[n];
            queue = new int[n];
            due = new long[n];
        }
        if (intervalNanos <= 0 && waiting != null) {
            Arrays.fill(waiting, false);
            size = 0;
        }
    }

    /** Client {@code c}'s position moved at {@code nowNanos} (a durable event of its user stream reached its app). */
    void received(ClientConn c, long nowNanos) {
        if (intervalNanos == 0) {
            return;
        }
        int i = c.index - first;
        if (waiting[i]) {
            return; // its ack goes out when due, with the highest seq by then
        }
        waiting[i] = true;
        int tail = (head + size) % queue.length;
        queue[tail] = i;
        due[tail] = nowNanos + intervalNanos;
        size++;
    }

    /** Writes the acks due by {@code nowNanos}; returns how many. */
    int sweep(long nowNanos) {
        int n = 0;
        while (size > 0 && due[head] - nowNanos <= 0) {
            int i = queue[head];
            head = (head + 1) % queue.length;
            size--;
            waiting[i] = false;
            ClientConn c = clients.get(i);
            String epoch = c.tally.epoch();
            long seq = c.tally.position();
            if (c.state == ClientConn.State.OPEN && c.welcomed && epoch != null && seq >= 1
                    && (seq > acked[i] || !epoch.equals(ackedEpoch[i]))) {
                acked[i] = seq;
                ackedEpoch[i] = epoch;
                sent++;
                n++;
                sink.write(c, frame(c.user, seq, random.nextInt()));
            }
        }
        return n;
    }

    /** How long the agent's selector may wait for I/O: until the next ack is due, at most {@code maxMs}. */
    long waitMs(long nowNanos, long maxMs) {
        if (size == 0) {
            return maxMs;
        }
        return Math.max(0, Math.min(maxMs, (due[head] - nowNanos + 999_999) / 1_000_000));
    }

    /** Ack frames written since the agent started. */
    long sent() {
        return sent;
    }

    /**
     * The masked client text frame of {@code {"t":"ack","stream":"u:<user>","seq":<seq>}} (user names
     * are ASCII), as {@link WsCodec#text} would encode it.
     */
    static byte[] frame(String user, long seq, int maskKey) {
        int digits = 1;
        for (long v = seq; v >= 10; v /= 10) {
            digits++;
        }
        int len = HEAD.length + user.length() + SEQ.length + digits + 1;
        int header = len <= 125 ? 2 : 4;
        byte[] out = new byte[header + 4 + len];
        out[0] = (byte) (0x80 | WsOpcode.TEXT);
        if (header == 2) {
            out[1] = (byte) (0x80 | len);
        } else {
            out[1] = (byte) (0x80 | 126);
            out[2] = (byte) (len >>> 8);
            out[3] = (byte) len;
        }
        byte[] key = {(byte) (maskKey >>> 24), (byte) (maskKey >>> 16), (byte) (maskKey >>> 8), (byte) maskKey};
        System.arraycopy(key, 0, out, header, 4);
        int p = header + 4;
        System.arraycopy(HEAD, 0, out, p, HEAD.length);
        p += HEAD.length;
        for (int i = 0; i < user.length(); i++) {
            out[p++] = (byte) user.charAt(i);
        }
        System.arraycopy(SEQ, 0, out, p, SEQ.length);
        p += SEQ.length;
        long v = seq;
        for (int i = p + digits - 1; i >= p; i--) {
            out[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        out[p + digits] = '}';
        for (int i = 0; i < len; i++) {
            out[header + 4 + i] ^= key[i & 3];
        }
        return out;
    }
}
