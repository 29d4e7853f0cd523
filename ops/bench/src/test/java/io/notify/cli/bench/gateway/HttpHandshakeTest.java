package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HttpHandshakeTest {

    @Test
    void upgradeRequestOffersTheSubprotocolAndTheBearerToken() {
        String req = new String(HttpHandshake.webSocket("127.0.0.1", 8081, "k==", "jwt.jwt.jwt"), StandardCharsets.US_ASCII);
        assertTrue(req.startsWith("GET /v1/ws HTTP/1.1\r\n"));
        assertTrue(req.contains("\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"));
        assertTrue(req.contains("\r\nSec-WebSocket-Key: k==\r\nSec-WebSocket-Version: 13\r\n"));
        assertTrue(req.contains("\r\nSec-WebSocket-Protocol: notify.v1\r\n"));
        assertTrue(req.contains("\r\nAuthorization: Bearer jwt.jwt.jwt\r\n"));
        assertTrue(req.endsWith("\r\n\r\n"));
        assertTrue(new String(HttpHandshake.sse("h", 1, "t"), StandardCharsets.US_ASCII).contains("Accept: text/event-stream\r\n"));
    }

    @Test
    void accepts101OnlyWithTheRightAcceptKeyAndSubprotocol() {
        String key = "dGhlIHNhbXBsZSBub25jZQ==";
        HttpHandshake.Response ok = HttpHandshake.parse("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nsec-websocket-protocol: notify.v1\r\n\r\n");
        assertTrue(ok.acceptsWebSocket(key));
        assertFalse(ok.acceptsWebSocket("another-key"));
        HttpHandshake.Response noProtocol = HttpHandshake.parse("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n");
        assertFalse(noProtocol.acceptsWebSocket(key));
    }

    @Test
    void refusalsCarryStatusAndRetryAfter() {
        HttpHandshake.Response busy = HttpHandshake.parse("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 2\r\n"
                + "Content-Type: application/problem+json\r\n\r\n");
        assertEquals(503, busy.status());
        assertEquals(2, busy.retryAfterSeconds());
        assertEquals(-1, HttpHandshake.parse("HTTP/1.1 401 Unauthorized\r\n").retryAfterSeconds());
        assertEquals(-1, HttpHandshake.parse("HTTP/1.1 503 x\r\nRetry-After: Fri, 31 Dec 1999 23:59:59 GMT\r\n").retryAfterSeconds());
        assertThrows(IllegalArgumentException.class, () -> HttpHandshake.parse("SSH-2.0-OpenSSH"));
    }

    @Test
    void findsTheEndOfTheHeadInAPartialBuffer() {
        byte[] bytes = "HTTP/1.1 101 OK\r\nA: b\r\n\r\n\u0081\u0002hi".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(-1, HttpHandshake.headEnd(ByteBuffer.wrap(bytes, 0, 20)));
        int end = HttpHandshake.headEnd(ByteBuffer.wrap(bytes));
        assertEquals("HTTP/1.1 101 OK\r\nA: b\r\n\r\n".length(), end);
    }
}
