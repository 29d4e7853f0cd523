package io.notify.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.notify.protocol.stream.StreamId;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointsTest {

    @Test
    void derivesBothEndpointsFromAnyFormOfTheBaseUrl() {
        for (String u : new String[] {"http://gw:8081", "http://gw:8081/", "ws://gw:8081/v1/ws", "http://gw:8081/v1/sse"}) {
            Endpoints e = Endpoints.of(URI.create(u));
            assertEquals(URI.create("ws://gw:8081/v1/ws"), e.webSocket(), u);
            assertEquals(URI.create("http://gw:8081/v1/sse"), e.sse(), u);
        }
        Endpoints tls = Endpoints.of(URI.create("https://example.com/notify"));
        assertEquals(URI.create("wss://example.com/notify/v1/ws"), tls.webSocket());
        assertEquals(URI.create("https://example.com/notify/v1/sse"), tls.sse());
    }

    @Test
    void theDeviceGoesInTheConnectUrlsAndTheInboxIsOnTheSameHostOverHttp() {
        Endpoints e = Endpoints.of(URI.create("wss://gw.example.com/notify/v1/ws"));
        assertEquals(URI.create("wss://gw.example.com/notify/v1/ws?device=phone-1"), e.webSocket("phone-1"));
        assertEquals(URI.create("wss://gw.example.com/notify/v1/ws"), e.webSocket(null));
        assertEquals(URI.create("https://gw.example.com/notify/v1/sse?device=phone-1"), e.sse(List.of(), "phone-1"));
        assertEquals(URI.create("https://gw.example.com/notify/v1/sse?rooms=chat-1&broadcast=true&device=a.b_c-9"),
                e.sse(List.of(StreamId.forRoom("chat-1"), StreamId.BROADCAST), "a.b_c-9"));
        assertEquals(URI.create("https://gw.example.com/notify/v1/sse?broadcast=true"), e.sse(List.of(StreamId.BROADCAST)));
        assertEquals(URI.create("https://gw.example.com/notify/v1/inbox/unread"), e.inbox(Endpoints.INBOX_PATH + "/unread"));
        assertEquals(URI.create("http://gw:8081/v1/inbox?limit=5"), Endpoints.of(URI.create("ws://gw:8081")).inbox("/v1/inbox?limit=5"));
    }

    @Test
    void deviceIdsAreCheckedAndGeneratedOnesAreValidAndDistinct() {
        assertEquals("phone-1", DeviceIds.check("phone-1"));
        assertEquals("x".repeat(64), DeviceIds.check("x".repeat(64)));
        for (String bad : new String[] {"", "x".repeat(65), "a b", "a:b", "ä", null}) {
            assertThrows(IllegalArgumentException.class, () -> DeviceIds.check(bad), String.valueOf(bad));
        }
        String a = DeviceIds.generate();
        assertEquals(a, DeviceIds.check(a));
        assertNotEquals(a, DeviceIds.generate());
    }

    @Test
    void refusesWhatIsNotAGatewayUrl() {
        assertThrows(IllegalArgumentException.class, () -> Endpoints.of(URI.create("ftp://gw")));
        assertThrows(IllegalArgumentException.class, () -> Endpoints.of(URI.create("http://gw/?access_token=x")));
        assertThrows(IllegalArgumentException.class, () -> Endpoints.of(URI.create("gw:8081")));
    }
}
