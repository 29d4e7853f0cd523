package io.notify.gateway.support;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A WebSocket client over a plain socket, for what well-behaved clients cannot send (invalid
 * UTF-8, oversized frames) or do (never read). Frames are read back unmasked as the server sends them.
 */
public final class RawWsClient implements AutoCloseable {

    /** One frame from the server. */
    public record Frame(int opcode, byte[] payload) {
        public int closeCode() {
            return payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : 1005;
        }

        public String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    private RawWsClient(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(socket.getInputStream());
    }

    /** Connects and upgrades; {@code receiveBuffer} > 0 shrinks the socket's receive buffer (slow reader). */
    public static RawWsClient connect(int port, String token, int receiveBuffer) throws IOException {
        return connect(port, token, receiveBuffer, new byte[0]);
    }

    /** As {@link #connect(int, String, int)}, sending {@code behindHandshake} in the same write as the request. */
    public static RawWsClient connect(int port, String token, int receiveBuffer, byte[] behindHandshake) throws IOException {
        Socket s = new Socket();
        if (receiveBuffer > 0) {
            s.setReceiveBufferSize(receiveBuffer);
        }
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.setSoTimeout(15_000);
        RawWsClient c = new RawWsClient(s);
        String key = Base64.getEncoder().encodeToString(new byte[16]);
        String request = "GET /v1/ws HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: notify.v1\r\n"
                + "Authorization: Bearer " + token + "\r\n\r\n";
        byte[] head = request.getBytes(StandardCharsets.US_ASCII);
        byte[] all = java.util.Arrays.copyOf(head, head.length + behindHandshake.length);
        System.arraycopy(behindHandshake, 0, all, head.length, behindHandshake.length);
        c.out.write(all);
        c.out.flush();
        String status = c.readHeaders();
        if (!status.startsWith("HTTP/1.1 101")) {
            throw new IOException("upgrade refused: " + status);
        }
        return c;
    }

    private String readHeaders() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed during the handshake");
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3)) ? matched + 1 : 0;
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        return text.substring(0, text.indexOf("\r\n"));
    }

    /**
     * Sends a handshake with exactly {@code headers} (plus Host, Upgrade, Connection, key, version)
     * and returns the response status code; the connection is closed afterwards.
     */
    public static int handshakeStatus(int port, java.util.Map<String, String> headers) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            s.setSoTimeout(10_000);
            RawWsClient c = new RawWsClient(s);
            StringBuilder request = new StringBuilder("GET /v1/ws HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
                    + Base64.getEncoder().encodeToString(new byte[16]) + "\r\nSec-WebSocket-Version: 13\r\n");
            headers.forEach((k, v) -> request.append(k).append(": ").append(v).append("\r\n"));
            c.out.write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
            c.out.flush();
            return Integer.parseInt(c.readHeaders().split(" ")[1]);
        }
    }

    /** Sends one masked frame (fin set) with exactly these payload bytes. */
    public void send(int opcode, byte[] payload) throws IOException {
        sendRaw(frame(true, opcode, payload));
    }

    /** Sends these bytes as they are (frames built with {@link #frame}, several in one write). */
    public void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Sends a close frame with {@code code} and no reason. */
    public void sendClose(int code) throws IOException {
        send(0x8, new byte[]{(byte) (code >> 8), (byte) code});
    }

    /** One masked client frame, as a browser would send it (RFC 6455 §5.2). */
    public static byte[] frame(boolean fin, int opcode, byte[] payload) {
        ByteArrayOutputStream f = new ByteArrayOutputStream();
        f.write((fin ? 0x80 : 0) | opcode);
        int len = payload.length;
        if (len < 126) {
            f.write(0x80 | len);
        } else if (len < 65536) {
            f.write(0x80 | 126);
            f.write(len >> 8);
            f.write(len);
        } else {
            f.write(0x80 | 127);
            for (int i = 7; i >= 0; i--) {
                f.write((int) ((long) len >> (8 * i)));
            }
        }
        byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        f.write(mask, 0, 4);
        for (int i = 0; i < len; i++) {
            f.write(payload[i] ^ mask[i % 4]);
        }
        return f.toByteArray();
    }

    public void sendText(String text) throws IOException {
        send(0x1, text.getBytes(StandardCharsets.UTF_8));
    }

    public Frame read() throws IOException {
        int b0 = in.readUnsignedByte();
        int b1 = in.readUnsignedByte();
        long len = b1 & 0x7f;
        if (len == 126) {
            len = in.readUnsignedShort();
        } else if (len == 127) {
            len = in.readLong();
        }
        byte[] payload = new byte[(int) len];
        in.readFully(payload);
        return new Frame(b0 & 0x0f, payload);
    }

    /** Reads until a close frame arrives; returns its code (1006 if the connection ended without one). */
    public int readUntilClose() {
        try {
            while (true) {
                Frame f = read();
                if (f.opcode() == 0x8) {
                    return f.closeCode();
                }
            }
        } catch (IOException e) {
            return 1006;
        }
    }

    public InputStream input() {
        return in;
    }

    /** Drops the connection with a TCP reset (no close frame, no FIN), leaving whatever was sent to it unread. */
    public void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
