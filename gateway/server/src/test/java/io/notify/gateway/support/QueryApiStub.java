package io.notify.gateway.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.common.auth.BearerKeys;
import io.notify.common.auth.ServiceToken;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.schemas.NotifyJson;
import io.notify.schemas.stream.SequencedEvent;
import io.notify.schemas.stream.StreamId;
import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RoutingHandler;
import io.undertow.util.Headers;
import io.undertow.util.SameThreadExecutor;
import java.net.InetSocketAddress;
import java.net.URI;
import javax.net.ssl.SSLContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * docs/query-api.md over in-memory inboxes, on Undertow port 0: what the gateway resumes from in
 * ITs while fanout-streams is built elsewhere. Like the real API it answers only a caller that
 * presents its service token ({@link TestConfig#QUERY_TOKEN} by default), 401 otherwise. Can fail
 * the next N requests (503) or delay answers (computed at request time, sent later), to test
 * retries and the live/replay merge.
 */
public final class QueryApiStub implements AutoCloseable {

    /** One stream's inbox: its epoch, the events held (seq order) and the oldest seq held. */
    private static final class Inbox {
        String epoch;
        final List<SequencedEvent> events = new ArrayList<>();
    }

    private final Map<StreamId, Inbox> inboxes = new ConcurrentHashMap<>();
    private final AtomicInteger failNext = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger headReads = new AtomicInteger();
    private final BearerKeys tokens;
    private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
    private volatile long delayMs;
    private final Undertow server;
    private final SSLContext tls;

    /** A stub that requires {@link TestConfig#QUERY_TOKEN}. */
    public QueryApiStub() {
        this(TestConfig.QUERY_TOKEN);
    }

    /** A stub that requires {@code token}. */
    public QueryApiStub(String token) {
        this(token, null);
    }

    /** A stub that requires {@code token}, over HTTPS with {@code tls} (null: plain HTTP). */
    public QueryApiStub(String token, SSLContext tls) {
        this.tls = tls;
        this.tokens = BearerKeys.numbered(List.of(new ServiceToken(token)));
        RoutingHandler routes = new RoutingHandler()
                .get("/v1/streams/{stream}/events", authorized(this::events))
                .post("/v1/streams:events", authorized(ex -> ex.getRequestReceiver().receiveFullBytes(this::batch)));
        Undertow.Builder builder = Undertow.builder();
        server = (tls == null ? builder.addHttpListener(0, "127.0.0.1") : builder.addHttpsListener(0, "127.0.0.1", tls)).setIoThreads(1).setWorkerThreads(1)
                .setHandler(routes).build();
        server.start();
    }

    public URI url() {
        return URI.create((tls == null ? "http" : "https") + "://127.0.0.1:" + ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort());
    }

    public synchronized void append(SequencedEvent... events) {
        for (SequencedEvent e : events) {
            Inbox inbox = inboxes.computeIfAbsent(e.stream(), s -> new Inbox());
            inbox.epoch = e.epoch();
            inbox.events.add(e);
        }
    }

    public synchronized void append(List<SequencedEvent> events) {
        events.forEach(this::append);
    }

    /** Drops every event before {@code firstSeq} (retention). */
    public synchronized void trimBefore(StreamId stream, long firstSeq) {
        inboxes.get(stream).events.removeIf(e -> e.seq() < firstSeq);
    }

    public void failNext(int n) {
        failNext.set(n);
    }

    public void delay(long millis) {
        delayMs = millis;
    }

    /** Requests answered (a 503 of {@link #failNext} included), refusals not. */
    public int requests() {
        return requests.get();
    }

    /** Head reads answered: single or batched entries with no epoch, {@code after=0} and {@code limit=1} (a gateway's anchor before welcome). */
    public int headReads() {
        return headReads.get();
    }

    /** Requests answered 401: no or another service token. */
    public int refused() {
        return refused.get();
    }

    private HttpHandler authorized(HttpHandler next) {
        return ex -> {
            if (tokens.authenticate(ex.getRequestHeaders().getFirst(Headers.AUTHORIZATION)).isEmpty()) {
                refused.incrementAndGet();
                HttpResponses.problem(ex, Problem.of(401, "unauthorized", "Unauthorized", "no service token"));
            } else {
                next.handleRequest(ex);
            }
        };
    }

    private void events(HttpServerExchange ex) {
        requests.incrementAndGet();
        if (failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            HttpResponses.retryLater(ex, Problem.of(503, "unavailable", "Store not queryable", "rebalancing"), 1);
            return;
        }
        StreamId stream = StreamId.parse(ex.getQueryParameters().get("stream").getFirst());
        long after = Long.parseLong(ex.getQueryParameters().get("after").getFirst());
        String epoch = ex.getQueryParameters().containsKey("epoch") ? ex.getQueryParameters().get("epoch").getFirst() : null;
        int limit = Integer.parseInt(ex.getQueryParameters().get("limit").getFirst());
        respond(ex, answer(stream, epoch, after, limit));
    }

    private void batch(HttpServerExchange ex, byte[] body) {
        requests.incrementAndGet();
        try {
            ObjectNode out = NotifyJson.mapper().createObjectNode();
            ArrayNode results = out.putArray("results");
            for (JsonNode r : NotifyJson.mapper().readTree(body).get("requests")) {
                results.add(answer(StreamId.parse(r.get("stream").asText()), r.hasNonNull("epoch") ? r.get("epoch").asText() : null,
                        r.path("after").asLong(0), r.path("limit").asInt(100)));
            }
            respond(ex, out);
        } catch (Exception e) {
            HttpResponses.problem(ex, Problem.of(400, "bad-request", "Bad request", e.getMessage()));
        }
    }

    private void respond(HttpServerExchange ex, ObjectNode answer) {
        long delay = delayMs;
        if (delay <= 0) {
            HttpResponses.json(ex, 200, answer);
            return;
        }
        ex.dispatch(SameThreadExecutor.INSTANCE, () ->
                later.schedule(() -> HttpResponses.json(ex, 200, answer), delay, TimeUnit.MILLISECONDS));
    }

    /** The single-stream answer of docs/query-api.md. */
    synchronized ObjectNode answer(StreamId stream, String epoch, long after, int limit) {
        if (epoch == null && after == 0 && limit == 1) {
            headReads.incrementAndGet();
        }
        ObjectNode out = NotifyJson.mapper().createObjectNode().put("stream", stream.value());
        Inbox inbox = inboxes.get(stream);
        if (inbox == null || inbox.epoch == null) {
            if (epoch != null) {
                out.putObject("reset").put("reason", "unknown_stream");
            } else {
                out.putNull("head");
                out.putArray("events");
                out.put("more", false);
            }
            return out;
        }
        long headSeq = inbox.events.isEmpty() ? 0 : inbox.events.get(inbox.events.size() - 1).seq();
        long firstSeq = inbox.events.isEmpty() ? headSeq + 1 : inbox.events.get(0).seq();
        String reason = null;
        if (epoch != null && (!epoch.equals(inbox.epoch) || after > headSeq)) {
            reason = "epoch_mismatch";
        } else if (after + 1 < firstSeq) {
            reason = "position_too_old";
        }
        if (reason != null) {
            ObjectNode reset = out.putObject("reset").put("reason", reason);
            reset.putObject("head").put("epoch", inbox.epoch).put("seq", headSeq);
            reset.put("firstSeq", firstSeq);
            return out;
        }
        out.putObject("head").put("epoch", inbox.epoch).put("seq", headSeq);
        out.put("firstSeq", firstSeq);
        ArrayNode events = out.putArray("events");
        int n = 0;
        boolean more = false;
        for (SequencedEvent e : inbox.events) {
            if (e.seq() > after) {
                if (n == limit) {
                    more = true;
                    break;
                }
                events.add(NotifyJson.mapper().valueToTree(e));
                n++;
            }
        }
        out.put("more", more);
        return out;
    }

    @Override
    public void close() {
        server.stop();
        later.shutdownNow();
    }
}
