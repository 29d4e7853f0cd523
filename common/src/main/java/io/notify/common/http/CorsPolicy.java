package io.notify.common.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The one CORS policy of Notify's HTTP APIs (ingest's publish API, the gateway's tickets and inbox
 * API), for pages on an allowlist of exact origins that call with an {@code Authorization} header.
 * No cookies are involved: {@code Access-Control-Allow-Credentials} is never sent.
 *
 * <p>Every answer carries {@code Vary: Origin} (it depends on the Origin). An answer to an allowed
 * origin carries {@code Access-Control-Allow-Origin} with exactly that origin and exposes the
 * headers that say why a request was refused ({@code Retry-After}, ...). A preflight ({@code OPTIONS}
 * with {@code Access-Control-Request-Method}) from an allowed origin gets the methods and headers
 * the endpoint takes, cached for {@value #PREFLIGHT_MAX_AGE_SECONDS} s; what a service answers to a
 * preflight from another origin (403) and whether it counts it is the service's. CORS decides only
 * which pages may read the answers: every request is still authenticated.
 */
public final class CorsPolicy {

    public static final int PREFLIGHT_MAX_AGE_SECONDS = 600;
    private static final HttpString REQUEST_METHOD = new HttpString("Access-Control-Request-Method");

    /** Where a request's Origin stands. */
    public enum Verdict {
        /** No Origin header: not a browser's cross-origin request (curl, services, same-origin GETs). */
        NO_ORIGIN,
        /** An origin on the allowlist. */
        ALLOWED,
        /** Any other origin: no CORS headers, so the browser hides the answer from the page. */
        REFUSED
    }

    private final Predicate<String> allowed;
    private final String methods;
    private final String headers;
    private final String exposed;

    /**
     * @param allowed whether an origin ({@code scheme://host[:port]}, compared exactly) is on the allowlist
     * @param methods {@code Access-Control-Allow-Methods} of a preflight, e.g. {@code "POST"}
     * @param headers {@code Access-Control-Allow-Headers} of a preflight, e.g. {@code "Authorization, Content-Type"}
     * @param exposed {@code Access-Control-Expose-Headers} of an allowed origin's answers, e.g. {@code "Retry-After"}
     */
    public CorsPolicy(Predicate<String> allowed, String methods, String headers, String exposed) {
        this.allowed = allowed;
        this.methods = methods;
        this.headers = headers;
        this.exposed = exposed;
    }

    public Verdict verdict(String origin) {
        if (origin == null) {
            return Verdict.NO_ORIGIN;
        }
        return allowed.test(origin) ? Verdict.ALLOWED : Verdict.REFUSED;
    }

    /** Whether the request is a CORS preflight: {@code OPTIONS} with {@code Access-Control-Request-Method}. */
    public static boolean isPreflight(String method, String requestedMethod) {
        return "OPTIONS".equals(method) && requestedMethod != null;
    }

    /** The headers of every answer to {@code origin}. */
    public Map<String, String> answerHeaders(String origin) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Vary", "Origin");
        if (verdict(origin) == Verdict.ALLOWED) {
            h.put("Access-Control-Allow-Origin", origin);
            h.put("Access-Control-Expose-Headers", exposed);
        }
        return h;
    }

    /** The headers an allowed origin's preflight adds to {@link #answerHeaders}. */
    public Map<String, String> preflightHeaders() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Access-Control-Allow-Methods", methods);
        h.put("Access-Control-Allow-Headers", headers);
        h.put("Access-Control-Max-Age", Integer.toString(PREFLIGHT_MAX_AGE_SECONDS));
        return h;
    }

    /** Puts {@link #answerHeaders} of the exchange's Origin; returns its verdict. */
    public Verdict annotate(HttpServerExchange exchange) {
        String origin = exchange.getRequestHeaders().getFirst(Headers.ORIGIN);
        put(exchange.getResponseHeaders(), answerHeaders(origin));
        return verdict(origin);
    }

    /** Whether the exchange is a CORS preflight ({@link #isPreflight(String, String)}). */
    public static boolean isPreflight(HttpServerExchange exchange) {
        return isPreflight(exchange.getRequestMethod().toString(), exchange.getRequestHeaders().getFirst(REQUEST_METHOD));
    }

    /** Puts {@link #preflightHeaders}: for an allowed origin's preflight, after {@link #annotate}. */
    public void putPreflightHeaders(HttpServerExchange exchange) {
        put(exchange.getResponseHeaders(), preflightHeaders());
    }

    private static void put(HeaderMap out, Map<String, String> values) {
        values.forEach((name, value) -> out.put(new HttpString(name), value));
    }
}
