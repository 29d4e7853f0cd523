package io.notify.cli.bench.gateway;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The HTTP/1.1 side of a connection: the WebSocket upgrade request ({@code notify.v1}, bearer
 * token), the SSE request, and parsing of the response head. Pure functions; no I/O.
 */
final class HttpHandshake {

    static final String SUBPROTOCOL = "notify.v1";
    /** A response head larger than this is refused (the gateway's are a few hundred bytes). */
    static final int MAX_HEAD = 16 * 1024;

    /** A parsed status line and headers (names lower-cased; the last value of a repeated name wins). */
    record Response(int status, Map<String, String> headers) {

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        /** {@code Retry-After} in seconds (delta form), or -1 when absent or not a number. */
        int retryAfterSeconds() {
            String v = header("retry-after");
            if (v == null) {
                return -1;
            }
            try {
                return Math.max(0, Integer.parseInt(v.trim()));
            } catch (NumberFormatException e) {
                return -1;
            }
        }

        /** Whether this is a valid 101 answer to a WebSocket handshake sent with {@code key}. */
        boolean acceptsWebSocket(String key) {
            return status == 101
                    && "websocket".equalsIgnoreCase(header("upgrade"))
                    && WsCodec.acceptKey(key).equals(header("sec-websocket-accept"))
                    && SUBPROTOCOL.equals(header("sec-websocket-protocol"));
        }
    }

    private HttpHandshake() {
    }

    static byte[] webSocket(String host, int port, String key, String token) {
        return ("GET /v1/ws HTTP/1.1\r\n"
                + "Host: " + host + ":" + port + "\r\n"
                + "Upgrade: websocket\r\n"
                + "Connection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + key + "\r\n"
                + "Sec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Protocol: " + SUBPROTOCOL + "\r\n"
                + "Authorization: Bearer " + token + "\r\n"
                + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] sse(String host, int port, String token) {
        return ("GET /v1/sse HTTP/1.1\r\n"
                + "Host: " + host + ":" + port + "\r\n"
                + "Accept: text/event-stream\r\n"
                + "Authorization: Bearer " + token + "\r\n"
                + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The index just past the blank line ending the response head in {@code buf} (between position
     * and limit, absolute), or -1 when it has not fully arrived.
     */
    static int headEnd(ByteBuffer buf) {
        for (int i = buf.position(); i + 3 < buf.limit(); i++) {
            if (buf.get(i) == '\r' && buf.get(i + 1) == '\n' && buf.get(i + 2) == '\r' && buf.get(i + 3) == '\n') {
                return i + 4;
            }
        }
        return -1;
    }

    /** Parses a response head (status line and headers, with or without the final blank line). */
    static Response parse(String head) {
        String[] lines = head.split("\r\n");
        String[] status = lines[0].split(" ", 3);
        if (status.length < 2 || !status[0].startsWith("HTTP/1.")) {
            throw new IllegalArgumentException("not an HTTP/1.x status line: " + lines[0]);
        }
        int code;
        try {
            code = Integer.parseInt(status[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad status code in: " + lines[0], e);
        }
        Map<String, String> headers = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
        }
        return new Response(code, headers);
    }
}
