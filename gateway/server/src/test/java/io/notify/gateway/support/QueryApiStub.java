package io.notify.gateway.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.common.auth.BearerKeys;
import io.notify.common.auth.ServiceToken;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.StreamId;
import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RoutingHandler;
import io.undertow.util.Headers;
import io.undertow.util.SameThreadExecutor;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * docs/query-api.md over in-memory inboxes, on Undertow port 0: what the gateway resumes from, and
 * what its inbox API reads ({@code /inbox} pages and {@code /state} counts), in ITs while
 * fanout-streams is built elsewhere. Like the real API it answers only a caller that
 * presents its service token ({@link TestConfig#QUERY_TOKEN} by default), 401 otherwise. Can fail
 * the next N requests (503) or delay answers (computed at request time, sent later), to test
 * retries and the live/replay merge.
 */
public final class QueryApiStub implements AutoCloseable {

    /** One stream's inbox: its epoch, the events held (seq order) and the oldest seq held; what its user has read. */
    private static final class Inbox {
        String epoch;
        final List<SequencedEvent> events = new ArrayList<>();
        long readUpTo;
        long version;
    }

    private final Map<StreamId, Inbox> inboxes = new ConcurrentHashMap<>();
    private final Map<StreamId, PushRegistrations> pushRegistrations = new ConcurrentHashMap<>();
    private final Map<StreamId, UserPreferences> preferences = new ConcurrentHashMap<>();
    private final AtomicInteger failNext = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger headReads = new AtomicInteger();
    private final AtomicInteger badRequestNext = new AtomicInteger();
    private final List<String> inboxRequests = new java.util.concurrent.CopyOnWriteArrayList<>();
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
                .post("/v1/streams:events", authorized(ex -> ex.getRequestReceiver().receiveFullBytes(this::batch)))
                .get("/v1/streams/{stream}/inbox", authorized(ex -> inbox(ex, false)))
                .get("/v1/streams/{stream}/state", authorized(ex -> inbox(ex, true)))
                .get("/v1/streams/{stream}/push-registrations", authorized(ex -> {
                    StreamId stream = StreamId.parse(ex.getQueryParameters().get("stream").getFirst());
                    HttpResponses.json(ex, 200, pushRegistrations.getOrDefault(stream, PushRegistrations.empty(stream)));
                }))
                .get("/v1/streams/{stream}/preferences", authorized(ex -> {
                    StreamId stream = StreamId.parse(ex.getQueryParameters().get("stream").getFirst());
                    HttpResponses.json(ex, 200, preferences.getOrDefault(stream, new UserPreferences(stream, Preferences.NONE, 0)));
                }));
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

    /** What {@code GET /v1/streams/{stream}/push-registrations} answers for {@code stream} from now on (as fanout-streams would). */
    public void pushRegistrations(PushRegistrations registrations) {
        pushRegistrations.put(registrations.stream(), registrations);
    }

    /** What {@code GET /v1/streams/{stream}/preferences} answers for the user from now on (as fanout-streams would). */
    public void preferences(UserPreferences prefs) {
        preferences.put(prefs.stream(), prefs);
    }

    public void failNext(int n) {
        failNext.set(n);
    }

    /** The next {@code n} inbox requests ({@code /inbox}, {@code /state}) are answered 400 problem+json. */
    public void badRequestNext(int n) {
        badRequestNext.set(n);
    }

    /** The user of {@code stream} read every event up to {@code seq} (its read state's version goes up). */
    public synchronized void markRead(StreamId stream, long seq) {
        Inbox inbox = inboxes.computeIfAbsent(stream, s -> new Inbox());
        inbox.readUpTo = Math.max(inbox.readUpTo, seq);
        inbox.version++;
    }

    /** The inbox requests answered ({@code /inbox} and {@code /state}), as path and query, in order. */
    public List<String> inboxRequests() {
        return List.copyOf(inboxRequests);
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

    /**
     * {@code /inbox}: a page newest first, each event unseen or read ({@link #markRead}), archived ones
     * never (the stub archives nothing: {@code archived=only} is an empty page); {@code /state}: the counts.
     */
    private void inbox(HttpServerExchange ex, boolean state) {
        requests.incrementAndGet();
        inboxRequests.add(ex.getRequestPath() + (ex.getQueryString().isEmpty() ? "" : "?" + ex.getQueryString()));
        if (failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            HttpResponses.retryLater(ex, Problem.of(503, "unavailable", "Store not queryable", "rebalancing"), 1);
            return;
        }
        if (badRequestNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            HttpResponses.problem(ex, Problem.of(400, "bad-request", "Bad request", "refused by the stub"));
            return;
        }
        StreamId stream = StreamId.parse(ex.getQueryParameters().get("stream").getFirst());
        String before = ex.getQueryParameters().containsKey("before") ? ex.getQueryParameters().get("before").getFirst() : null;
        int limit = ex.getQueryParameters().containsKey("limit") ? Integer.parseInt(ex.getQueryParameters().get("limit").getFirst()) : 20;
        boolean onlyArchived = ex.getQueryParameters().containsKey("archived")
                && "only".equals(ex.getQueryParameters().get("archived").getFirst());
        respond(ex, inboxAnswer(stream, state, before == null ? Long.MAX_VALUE : Long.parseLong(before), limit, onlyArchived));
    }

    private synchronized ObjectNode inboxAnswer(StreamId stream, boolean state, long before, int limit, boolean onlyArchived) {
        ObjectNode out = NotifyJson.mapper().createObjectNode().put("stream", stream.value());
        Inbox inbox = inboxes.get(stream);
        if (inbox == null || inbox.events.isEmpty()) { // as the query API: no head, no firstSeq (docs/query-api.md)
            out.put("unread", 0).put("unseen", 0).put("version", inbox == null ? 0 : inbox.version);
            if (!state) {
                out.putArray("events");
            }
            return out;
        }
        long headSeq = inbox.events.get(inbox.events.size() - 1).seq();
        long firstSeq = inbox.events.get(0).seq();
        long unread = inbox.events.stream().filter(e -> e.seq() > inbox.readUpTo).count();
        out.putObject("head").put("epoch", inbox.epoch).put("seq", headSeq);
        out.put("firstSeq", firstSeq).put("unread", unread).put("unseen", unread).put("version", inbox.version);
        if (state) {
            ObjectNode s = out.putObject("state").put("stream", stream.value()).put("epoch", inbox.epoch);
            s.putObject("read").put("upTo", inbox.readUpTo).putArray("seqs");
            s.put("version", inbox.version).put("updatedAt", 0);
            return out;
        }
        ArrayNode events = out.putArray("events");
        List<SequencedEvent> below = inbox.events.stream().filter(e -> e.seq() < before && !onlyArchived)
                .sorted((a, b) -> Long.compare(b.seq(), a.seq())).toList();
        for (SequencedEvent e : below.subList(0, Math.min(limit, below.size()))) {
            ObjectNode item = events.addObject();
            item.set("event", NotifyJson.mapper().valueToTree(e));
            item.put("state", e.seq() <= inbox.readUpTo ? "read" : "unseen");
        }
        if (below.size() > limit) {
            out.put("next", below.get(limit - 1).seq());
        }
        return out;
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
