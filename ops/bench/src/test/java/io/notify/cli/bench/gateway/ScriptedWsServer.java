package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.notify.protocol.frame.WsOpcode;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback server that plays a gateway by script, written by hand (not with {@link WsCodec}) so
 * the client's bytes are checked independently: it accepts connections one after another and runs
 * the script of each in turn; what the scripts record, and any failure, lands in {@link #saw}.
 */
final class ScriptedWsServer implements AutoCloseable {

    /** One connection's part; {@code server} is the server running it (its {@link #accept} and {@link #saw}). */
    interface Script {
        void run(ScriptedWsServer server, Socket s) throws Exception;
    }

    final List<String> saw = new CopyOnWriteArrayList<>();
    private final ServerSocket socket;

    /** Serves one connection per script, in order, on a daemon thread. */
    ScriptedWsServer(Script... scripts) throws IOException {
        socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            for (Script script : scripts) {
                try (Socket s = socket.accept()) {
                    script.run(this, s);
                } catch (Exception e) {
                    saw.add("server failed: " + e);
                    return;
                }
            }
        }, "scripted-server");
        t.setDaemon(true);
        t.start();
    }

    InetSocketAddress address() {
        return new InetSocketAddress(socket.getInetAddress(), socket.getLocalPort());
    }

    /** Reads the upgrade request (recorded in {@link #saw}) and answers 101 with notify.v1. */
    void accept(Socket s) throws Exception {
        List<String> head = readHead(s);
        saw.addAll(head);
        String key = head.stream().filter(h -> h.startsWith("Sec-WebSocket-Key: ")).findFirst().orElseThrow().substring(19);
        String accept = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1")
                .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII)));
        OutputStream out = s.getOutputStream();
        out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: "
                + accept + "\r\nSec-WebSocket-Protocol: notify.v1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    static List<String> readHead(Socket s) throws IOException {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = s.getInputStream().read()) != -1) {
            if (b == '\n') {
                String l = line.toString().strip();
                if (l.isEmpty()) {
                    break;
                }
                lines.add(l);
                line.setLength(0);
            } else {
                line.append((char) b);
            }
        }
        return lines;
    }

    /** One masked client text frame (payload < 126 bytes), unmasked by hand. */
    static String readClientText(DataInputStream in) throws IOException {
        int b0 = in.readUnsignedByte();
        int b1 = in.readUnsignedByte();
        assertEquals(0x81, b0, "FIN + text");
        assertEquals(0x80, b1 & 0x80, "client frames are masked");
        byte[] key = in.readNBytes(4);
        byte[] p = in.readNBytes(b1 & 0x7F);
        for (int i = 0; i < p.length; i++) {
            p[i] ^= key[i % 4];
        }
        return new String(p, StandardCharsets.UTF_8);
    }

    /** A notify.v1 welcome for {@code user}'s stream. */
    static String welcome(String user) {
        return "{\"t\":\"welcome\",\"protocol\":\"notify.v1\",\"nodeId\":\"gw-t\",\"connectionId\":\"c-1\",\"streams\":[\"u:"
                + user + "\"],\"pingIntervalMs\":25000,\"serverTime\":1764410130123}";
    }

    /** A durable event of {@code user}'s stream, epoch ep1, with {@code data} (a JSON object). */
    static String event(String user, long seq, String data) {
        return "{\"t\":\"event\",\"stream\":\"u:" + user + "\",\"epoch\":\"ep1\",\"seq\":" + seq + ",\"id\":\"e-" + seq
                + "\",\"type\":\"bench.gateway\",\"class\":\"durable\",\"data\":" + data + "}";
    }

    static byte[] text(String s) {
        return WsCodecTest.serverFrame(WsOpcode.TEXT, s);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
