package io.notify.cli.bench.gateway;

import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.PingFrame;
import io.notify.protocol.frame.ProtocolException;
import io.notify.protocol.frame.ResetFrame;
import io.notify.protocol.frame.ResumeFrame;
import io.notify.protocol.frame.ResumePoint;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.frame.WsOpcode;
import io.notify.protocol.stream.StreamId;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * What a {@link NioDriver} connection does with the bytes it reads: the response head of the
 * handshake, then RFC 6455 frames (control pings answered with pongs, fragments joined) and the
 * notify.v1 frames in them: the upgrade → send {@code resume} at once when the client holds a
 * position (as the SDKs do), {@code welcome} → send {@code resume} when it has not gone yet,
 * {@code {"t":"ping"}} → {@code {"t":"pong"}}, events and resets to the listener.
 */
final class Inbound {

    private static final byte[] PONG = "{\"t\":\"pong\"}".getBytes(StandardCharsets.UTF_8);

    private final NioDriver driver;
    private final boolean sse;
    private final NioDriver.Listener listener;
    private final SplittableRandom random = new SplittableRandom();

    Inbound(NioDriver driver, boolean sse, NioDriver.Listener listener) {
        this.driver = driver;
        this.sse = sse;
        this.listener = listener;
    }

    /** Handles what {@code scratch} holds; false when the connection ended meanwhile. */
    boolean consume(ClientConn c, ByteBuffer scratch) {
        if (c.state == ClientConn.State.HANDSHAKE) {
            int end = HttpHandshake.headEnd(scratch);
            if (end < 0) {
                if (scratch.remaining() > HttpHandshake.MAX_HEAD) {
                    driver.fail(c, "response head over " + HttpHandshake.MAX_HEAD + " bytes", -1, -1);
                    return false;
                }
                return true;
            }
            byte[] head = new byte[end - scratch.position()];
            scratch.get(head);
            HttpHandshake.Response r = HttpHandshake.parse(new String(head, StandardCharsets.US_ASCII));
            boolean ok = sse ? r.status() == 200 : r.acceptsWebSocket(c.wsKey);
            if (!ok) {
                driver.fail(c, "http " + r.status(), r.status(), r.retryAfterSeconds());
                return false;
            }
            c.state = ClientConn.State.OPEN;
            if (sse) {
                driver.attemptDone(c);
                listener.established(c, System.nanoTime());
            } else if (hasPosition(c)) {
                // as the SDKs do (docs/protocol.md, "resume"): with a position, resume at once, before welcome
                c.resumed = true;
                driver.write(c, WsCodec.text(FrameCodec.v1().encode(resumeOf(c)), random.nextInt()));
                if (c.channel == null) {
                    return false;
                }
            }
        }
        if (sse) {
            scratch.position(scratch.limit()); // idle SSE streams: retry, welcome, keep-alives; not parsed
            return c.channel != null;
        }
        WsCodec.Frame f;
        while (c.channel != null && (f = WsCodec.decode(scratch)) != null) {
            onFrame(c, f);
        }
        return c.channel != null;
    }

    private void onFrame(ClientConn c, WsCodec.Frame f) {
        switch (f.opcode()) {
            case WsOpcode.PING -> driver.write(c, WsCodec.clientFrame(WsOpcode.PONG, f.payload(), random.nextInt()));
            case WsOpcode.PONG -> { }
            case WsOpcode.CLOSE -> driver.fail(c, "close " + f.closeCode(), -1, -1);
            case WsOpcode.TEXT, WsOpcode.CONTINUATION -> {
                if (!f.fin() || c.fragments != null) {
                    if (c.fragments == null) {
                        c.fragments = new ByteArrayOutputStream();
                    }
                    c.fragments.writeBytes(f.payload());
                    if (!f.fin()) {
                        return;
                    }
                    String text = c.fragments.toString(StandardCharsets.UTF_8);
                    c.fragments = null;
                    onText(c, text);
                } else {
                    onText(c, f.text());
                }
            }
            default -> driver.fail(c, "unexpected opcode " + f.opcode(), -1, -1);
        }
    }

    private void onText(ClientConn c, String text) {
        EventFrame scanned = EventScan.read(text);
        if (scanned != null) {
            listener.event(c, scanned, System.nanoTime());
            return;
        }
        ServerFrame frame;
        try {
            frame = FrameCodec.v1().decodeServerFrame(text);
        } catch (ProtocolException e) {
            if (e.isUnknownType()) {
                return; // newer server frame types are ignored, as docs/protocol.md §7 asks
            }
            throw e;
        }
        long now = System.nanoTime();
        if (frame instanceof EventFrame e) {
            listener.event(c, e, now);
        } else if (frame instanceof PingFrame) {
            driver.write(c, WsCodec.clientFrame(WsOpcode.TEXT, PONG, random.nextInt()));
        } else if (frame instanceof WelcomeFrame) {
            c.welcomed = true;
            c.welcomeNanos = now;
            if (!c.resumed) {
                driver.write(c, WsCodec.text(FrameCodec.v1().encode(resumeOf(c)), random.nextInt()));
            }
            driver.attemptDone(c);
            if (c.channel != null) {
                listener.established(c, now);
            }
        } else if (frame instanceof ResetFrame r) {
            listener.reset(c, r);
        } else if (frame instanceof io.notify.protocol.frame.SubscribedFrame s) {
            listener.subscribed(c, s);
        }
    }

    private static boolean hasPosition(ClientConn c) {
        return c.tally.epoch() != null && c.tally.position() >= 1;
    }

    private static ResumeFrame resumeOf(ClientConn c) {
        ResumeTally t = c.tally;
        if (!hasPosition(c)) {
            return ResumeFrame.live();
        }
        return ResumeFrame.of(new ResumePoint(StreamId.forUser(c.user), t.epoch(), t.position()));
    }

}
