package io.notify.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
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
    void refusesWhatIsNotAGatewayUrl() {
        assertThrows(IllegalArgumentException.class, () -> Endpoints.of(URI.create("ftp://gw")));
        assertThrows(IllegalArgumentException.class, () -> Endpoints.of(URI.create("http://gw/?access_token=x")));
        assertThrows(IllegalArgumentException.class, () -> Endpoints.of(URI.create("gw:8081")));
    }
}
