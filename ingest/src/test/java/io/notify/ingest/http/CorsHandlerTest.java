package io.notify.ingest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.undertow.Undertow;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The handler in front of a route that answers 200 "route", on a real Undertow listener. */
class CorsHandlerTest {

    private static final String ALLOWED = "http://localhost:8081";
    private static Undertow server;
    private static URI uri;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        server = Undertow.builder().addHttpListener(0, "127.0.0.1")
                .setHandler(new CorsHandler(Set.of(ALLOWED, "http://127.0.0.1:8082"), ex -> ex.getResponseSender().send("route")))
                .build();
        server.start();
        uri = URI.create("http://127.0.0.1:" + ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort() + "/v1/events");
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    private static HttpResponse<String> send(String method, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            b.headers(headers);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void allowedOriginIsEchoedExactlyAndItsPreflightAnsweredHere() throws Exception {
        HttpResponse<String> post = send("POST", "Origin", ALLOWED);
        assertEquals("route", post.body());
        assertEquals(ALLOWED, post.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        assertEquals("Retry-After", post.headers().firstValue("Access-Control-Expose-Headers").orElse(null));
        assertEquals("Origin", post.headers().firstValue("Vary").orElse(null));

        HttpResponse<String> preflight = send("OPTIONS", "Origin", "http://127.0.0.1:8082", "Access-Control-Request-Method", "POST");
        assertEquals(204, preflight.statusCode());
        assertEquals("", preflight.body(), "answered here, not by the route");
        assertEquals("http://127.0.0.1:8082", preflight.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        assertEquals("POST, DELETE", preflight.headers().firstValue("Access-Control-Allow-Methods").orElse(null));
        assertEquals("Authorization, Content-Type", preflight.headers().firstValue("Access-Control-Allow-Headers").orElse(null));
        assertEquals("600", preflight.headers().firstValue("Access-Control-Max-Age").orElse(null));
    }

    @Test
    void otherOriginsGetNoCorsHeadersAndTheirPreflightIsRefused() throws Exception {
        // exact match only: another port, scheme or host is another origin
        for (String origin : new String[] {"http://localhost:8082", "https://localhost:8081", "http://localhost:8081/",
                "http://evil.example", "null"}) {
            HttpResponse<String> post = send("POST", "Origin", origin);
            assertEquals("route", post.body(), origin);
            assertFalse(post.headers().firstValue("Access-Control-Allow-Origin").isPresent(), origin);
            HttpResponse<String> preflight = send("OPTIONS", "Origin", origin, "Access-Control-Request-Method", "POST");
            assertEquals(403, preflight.statusCode(), origin);
            assertTrue(preflight.headers().map().keySet().stream().noneMatch(h -> h.toLowerCase().startsWith("access-control-")), origin);
        }
    }

    @Test
    void requestsWithoutOriginAndPlainOptionsPassThrough() throws Exception {
        assertEquals("route", send("POST").body()); // curl, services
        assertEquals("route", send("OPTIONS", "Access-Control-Request-Method", "POST").body());
        HttpResponse<String> notAPreflight = send("OPTIONS", "Origin", ALLOWED);
        assertEquals("route", notAPreflight.body());
        assertEquals(ALLOWED, notAPreflight.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
    }
}
