package io.notify.gateway.web;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RoutingHandler;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The browser side of a gateway: {@code GET /notify.js} (the client, an ES module), {@code GET /}
 * (the demo page), {@code GET /demo.css} and {@code GET /service-worker.js} (the push service worker
 * of examples/browser-push, which the demo page registers), from the classpath folder {@code io/notify/gateway/web}.
 *
 * <p>Guarantees: the files are read once, at construction, so a gateway built without them fails
 * at start instead of answering 404 later. They are served from memory on the I/O thread, so
 * nothing blocks. Each answer carries a strong {@code ETag} (a SHA-256 of the bytes) and a
 * {@code Cache-Control}, and a matching {@code If-None-Match} is answered with 304. notify.js is
 * public code, so any origin may import it ({@code Access-Control-Allow-Origin: *}). The page's
 * URL may carry a token, so the page is sent with {@code Referrer-Policy: no-referrer}.
 */
public final class WebAssets implements HttpHandler {

    private static final String FOLDER = "/io/notify/gateway/web/";

    /** One served file. */
    record Asset(byte[] body, String contentType, String etag, Map<String, String> headers) {
    }

    /** What a request gets, decided without an exchange so it can be tested without a server. */
    record Answer(int status, Map<String, String> headers, byte[] body) {
    }

    private final Map<String, Asset> assets;

    WebAssets(Map<String, Asset> assets) {
        this.assets = Collections.unmodifiableMap(new LinkedHashMap<>(assets));
    }

    /** The gateway's files, read from the classpath; fails if one is missing. */
    public static WebAssets load() {
        Map<String, Asset> m = new LinkedHashMap<>();
        // The page is small and may change with every release: always revalidate it.
        m.put("/", asset("index.html", "text/html; charset=utf-8",
                Map.of("Cache-Control", "no-cache", "Referrer-Policy", "no-referrer")));
        // Apps import the client on every page view; a few minutes of staleness is harmless within notify.v1.
        m.put("/notify.js", asset("notify.js", "application/javascript; charset=utf-8",
                Map.of("Cache-Control", "public, max-age=300", "Access-Control-Allow-Origin", "*")));
        m.put("/demo.css", asset("demo.css", "text/css; charset=utf-8", Map.of("Cache-Control", "public, max-age=300")));
        // the demo page's push service worker (examples/browser-push): browsers revalidate workers themselves
        m.put("/service-worker.js", asset("service-worker.js", "application/javascript; charset=utf-8", Map.of("Cache-Control", "no-cache")));
        return new WebAssets(m);
    }

    static Asset asset(String file, String contentType, Map<String, String> headers) {
        try (InputStream in = WebAssets.class.getResourceAsStream(FOLDER + file)) {
            if (in == null) {
                throw new IllegalStateException("web asset " + FOLDER + file + " is missing from the classpath");
            }
            byte[] body = in.readAllBytes();
            return new Asset(body, contentType, etag(body), headers);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read web asset " + file, e);
        }
    }

    static String etag(byte[] body) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(body);
            return "\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(hash).substring(0, 22) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The paths this handler serves. */
    public List<String> paths() {
        return List.copyOf(assets.keySet());
    }

    /** Adds {@code GET} routes for every served path. */
    public RoutingHandler addTo(RoutingHandler routes) {
        for (String path : assets.keySet()) {
            routes.get(path, this);
        }
        return routes;
    }

    Answer answer(String path, String ifNoneMatch) {
        Asset a = assets.get(path);
        if (a == null) {
            return new Answer(404, Map.of("Content-Type", "text/plain; charset=utf-8"), "not found\n".getBytes(StandardCharsets.UTF_8));
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("ETag", a.etag());
        headers.putAll(a.headers());
        if (matches(ifNoneMatch, a.etag())) {
            return new Answer(304, headers, new byte[0]);
        }
        headers.put("Content-Type", a.contentType());
        headers.put("X-Content-Type-Options", "nosniff");
        return new Answer(200, headers, a.body());
    }

    /** If-None-Match: {@code *} or a list of tags; weak comparison, as RFC 9110 prescribes for it. */
    static boolean matches(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null) {
            return false;
        }
        for (String tag : ifNoneMatch.split(",")) {
            String t = tag.trim();
            if (t.equals("*") || (t.startsWith("W/") ? t.substring(2) : t).equals(etag)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        Answer a = answer(exchange.getRequestPath(), exchange.getRequestHeaders().getFirst(Headers.IF_NONE_MATCH));
        exchange.setStatusCode(a.status());
        a.headers().forEach((name, value) -> exchange.getResponseHeaders().put(new HttpString(name), value));
        if (a.body().length == 0) {
            exchange.endExchange();
        } else {
            exchange.getResponseSender().send(ByteBuffer.wrap(a.body()));
        }
    }
}
