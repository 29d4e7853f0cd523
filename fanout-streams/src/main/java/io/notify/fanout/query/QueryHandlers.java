package io.notify.fanout.query;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.notify.common.http.BodyReader;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.StreamId;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.SameThreadExecutor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The query API's request handlers (docs/query-api.md). Store reads run on worker threads;
 * forwarding to another owner is asynchronous. Every answer is either correct data, a reset, a
 * 400 for a malformed request, or a 503 + Retry-After — never stale or partial data.
 */
public final class QueryHandlers {

    public static final int MAX_BATCH = 500;
    static final int MAX_BATCH_BYTES = 256 * 1024;
    static final String BATCH_PATH = "/v1/streams:events";

    /** The batch request body. */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public record BatchRequest(List<Item> requests) {
        /** One stream of a batch; {@code after}/{@code limit} default to 0 and 100. */
        public record Item(String stream, String epoch, Long after, Integer limit) {
        }
    }

    /** The batch answer: one result per request, in order. */
    public record BatchResponse(List<StreamAnswer> results) {
    }

    private final Supplier<StreamOwners> owners;
    private final QueryForwarder forwarder;
    private final QueryMetrics metrics;

    public QueryHandlers(Supplier<StreamOwners> owners, QueryForwarder forwarder, QueryMetrics metrics) {
        this.owners = owners;
        this.forwarder = forwarder;
        this.metrics = metrics;
    }

    public HttpHandler head() {
        return onWorker(ex -> single(ex, "head", q -> (state, stream) -> InboxReader.head(state, stream)));
    }

    public HttpHandler events() {
        return onWorker(ex -> single(ex, "events", q -> {
            Query query = Query.parse(param(q, "epoch", null), param(q, "after", "0"), param(q, "limit", null));
            return (state, stream) -> InboxReader.eventsAfter(state, stream, query.epoch(), query.after(), query.limit());
        }));
    }

    /** {@code GET /v1/streams/{stream}/inbox}: a page newest first with each event's state (docs/inbox.md). */
    public HttpHandler inbox() {
        return onWorker(ex -> single(ex, "inbox", q -> {
            String before = param(q, "before", null);
            Long beforeSeq = before == null ? null : Query.number("before", before);
            int limit = Query.count("limit", param(q, "limit", Integer.toString(InboxPages.DEFAULT_LIMIT)));
            InboxPages.Archived archived = InboxPages.Archived.parse(param(q, "archived", null));
            return (state, stream) -> InboxPages.page(state, stream, beforeSeq, limit, archived);
        }));
    }

    /** {@code GET /v1/streams/{stream}/state}: unread and unseen counts and the read state. */
    public HttpHandler state() {
        return onWorker(ex -> single(ex, "state", q -> InboxPages::counts));
    }

    /** {@code GET /v1/streams/{stream}/status?seq=}: one event's state and the devices that acknowledged it. */
    public HttpHandler status() {
        return onWorker(ex -> single(ex, "status", q -> {
            long seq = Query.number("seq", param(q, "seq", null));
            return (state, stream) -> InboxPages.status(state, stream, seq);
        }));
    }

    /** {@code GET /v1/streams/{stream}/push-registrations}: a user's push registrations, oldest first (docs/push.md). */
    public HttpHandler pushRegistrations() {
        return onWorker(ex -> single(ex, "push_registrations", q -> (state, stream) -> {
            if (!stream.isUser()) {
                throw new IllegalArgumentException("only user streams (u:<user>) have push registrations");
            }
            return state.pushRegistrations(stream).orElseGet(() -> PushRegistrations.empty(stream));
        }));
    }

    /**
     * {@code GET /v1/streams/{stream}/preferences}: a user's preferences ({@code updatedAt} 0 and nothing set
     * when they never set any; docs/inbox.md, "Preferences").
     */
    public HttpHandler preferences() {
        return onWorker(ex -> single(ex, "preferences", q -> (state, stream) -> {
            if (!stream.isUser()) {
                throw new IllegalArgumentException("only user streams (u:<user>) have preferences");
            }
            return state.preferences(stream).orElseGet(() -> new UserPreferences(stream, Preferences.NONE, 0));
        }));
    }

    public HttpHandler batch() {
        return ex -> BodyReader.read(ex, MAX_BATCH_BYTES,
                (e, body) -> e.dispatch(w -> batch(w, body)),
                e -> HttpResponses.problem(e, Problem.of(413, "body-too-large", "Body too large",
                        "a batch body may be at most " + MAX_BATCH_BYTES + " bytes")),
                (e, error) -> e.endExchange());
    }

    private static HttpHandler onWorker(HttpHandler h) {
        return ex -> {
            if (ex.isInIoThread()) {
                ex.dispatch(h);
            } else {
                h.handleRequest(ex);
            }
        };
    }

    /** What one stream's endpoint answers from the owner's stores. */
    @FunctionalInterface
    private interface LocalRead {
        Object read(InboxReader.StreamState state, StreamId stream);
    }

    /** Parses the request's parameters into a read; IllegalArgumentException for a malformed request (400, not forwarded). */
    @FunctionalInterface
    private interface ReadParser {
        LocalRead parse(HttpServerExchange ex);
    }

    private void single(HttpServerExchange ex, String kind, ReadParser parser) {
        long start = System.nanoTime();
        StreamId stream;
        LocalRead read;
        try {
            stream = StreamId.parse(param(ex, "stream", null));
            read = parser.parse(ex);
        } catch (IllegalArgumentException e) {
            metrics.request(kind, "bad_request", start);
            HttpResponses.problem(ex, Problem.of(400, "bad-request", "Bad request", e.getMessage()));
            return;
        }
        StreamOwners o = owners.get();
        StreamOwners.Owner owner = o == null ? new StreamOwners.Unavailable("fanout-streams is starting") : o.ownerOf(stream);
        if (owner instanceof StreamOwners.Remote remote && !isForwarded(ex)) {
            String target = ex.getRequestURI() + (ex.getQueryString().isEmpty() ? "" : "?" + ex.getQueryString());
            ex.dispatch(SameThreadExecutor.INSTANCE, () -> forwarder.get(remote.host(), target, authorization(ex))
                    .whenComplete((r, error) -> {
                        metrics.request(kind, error == null ? "forwarded" : "forward_failed", start);
                        if (error != null) {
                            unavailable(ex, "forwarding to " + remote.host() + " failed: " + error.getMessage());
                        } else {
                            passThrough(ex, r);
                        }
                    }));
            return;
        }
        Object answer;
        try {
            answer = answerLocally(o, owner, stream, read);
        } catch (UnavailableException e) {
            metrics.request(kind, "unavailable", start);
            unavailable(ex, e.getMessage());
            return;
        } catch (IllegalArgumentException e) {
            metrics.request(kind, "bad_request", start);
            HttpResponses.problem(ex, Problem.of(400, "bad-request", "Bad request", e.getMessage()));
            return;
        }
        metrics.request(kind, answer instanceof StreamAnswer a && a.reset() != null ? "reset" : "ok", start);
        HttpResponses.json(ex, 200, answer);
    }

    /** A parsed events query. */
    record Query(String epoch, long after, int limit) {
        static Query parse(String epoch, String after, String limit) {
            return new Query(epoch, number("after", after == null ? "0" : after),
                    limit == null ? InboxReader.DEFAULT_LIMIT : count("limit", limit));
        }

        /** A number that must fit an int (a page size): a larger one is refused, never truncated into range. */
        static int count(String name, String value) {
            long n = number(name, value);
            if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(name + " is out of range, got " + value);
            }
            return (int) n;
        }

        static long number(String name, String value) {
            if (value == null) {
                throw new IllegalArgumentException(name + " is required");
            }
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be a number, got '" + value + "'");
            }
        }
    }

    private static final class UnavailableException extends Exception {
        UnavailableException(String message) {
            super(message, null, false, false);
        }
    }

    /** Answers from this instance's stores; IllegalArgumentException for a malformed query is the caller's. */
    private Object answerLocally(StreamOwners o, StreamOwners.Owner owner, StreamId stream, LocalRead read)
            throws UnavailableException {
        if (owner instanceof StreamOwners.Unavailable u) {
            throw new UnavailableException(u.reason());
        }
        if (!(owner instanceof StreamOwners.Local local)) {
            throw new UnavailableException("ownership of " + stream.value() + " is moving; retry");
        }
        try {
            return read.read(o.local(local.partition()), stream);
        } catch (InvalidStateStoreException e) {
            throw new UnavailableException("store for " + stream.value() + " is not queryable now: " + e.getMessage());
        }
    }

    private void batch(HttpServerExchange ex, byte[] body) {
        long start = System.nanoTime();
        BatchRequest request;
        try {
            request = NotifyJson.mapper().readValue(body, BatchRequest.class);
            if (request.requests() == null || request.requests().size() > MAX_BATCH) {
                throw new IllegalArgumentException("requests must be a list of at most " + MAX_BATCH + " entries");
            }
        } catch (IOException | IllegalArgumentException e) {
            metrics.request("batch", "bad_request", start);
            HttpResponses.problem(ex, Problem.of(400, "bad-request", "Bad request", firstLine(e.getMessage())));
            return;
        }
        List<BatchRequest.Item> items = request.requests();
        StreamAnswer[] results = new StreamAnswer[items.size()];
        Map<HostInfo, List<Integer>> remote = new LinkedHashMap<>();
        StreamOwners o = owners.get();
        for (int i = 0; i < items.size(); i++) {
            BatchRequest.Item item = items.get(i);
            String name = item == null ? null : item.stream();
            try {
                StreamId stream = StreamId.parse(name);
                Query q = new Query(item.epoch(), item.after() == null ? 0 : item.after(),
                        item.limit() == null ? InboxReader.DEFAULT_LIMIT : item.limit());
                StreamOwners.Owner owner = o == null ? new StreamOwners.Unavailable("starting") : o.ownerOf(stream);
                if (owner instanceof StreamOwners.Remote r && !isForwarded(ex)) {
                    remote.computeIfAbsent(r.host(), h -> new ArrayList<>()).add(i);
                } else {
                    results[i] = (StreamAnswer) answerLocally(o, owner, stream,
                            (state, s) -> InboxReader.eventsAfter(state, s, q.epoch(), q.after(), q.limit()));
                }
            } catch (IllegalArgumentException | NullPointerException e) {
                results[i] = StreamAnswer.error(name, 400, String.valueOf(e.getMessage()));
            } catch (UnavailableException e) {
                results[i] = StreamAnswer.error(name, 503, e.getMessage());
            }
        }
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        remote.forEach((host, indexes) -> pending.add(forwardBatch(host, items, indexes, results, authorization(ex))));
        ex.dispatch(SameThreadExecutor.INSTANCE, () -> CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                .whenComplete((v, error) -> {
                    metrics.request("batch", remote.isEmpty() ? "ok" : "forwarded", start);
                    try {
                        HttpResponses.json(ex, 200, new BatchResponse(List.of(results)));
                    } catch (RuntimeException e) {
                        // Never leave a batch unanswered: a failure here is ours, say so.
                        HttpResponses.problem(ex, Problem.of(500, "internal", "Internal error", e.toString()));
                    }
                }));
    }

    private CompletableFuture<Void> forwardBatch(HostInfo host, List<BatchRequest.Item> items, List<Integer> indexes,
                                                 StreamAnswer[] results, String authorization) {
        List<BatchRequest.Item> sub = indexes.stream().map(items::get).toList();
        byte[] json;
        try {
            json = NotifyJson.mapper().writeValueAsBytes(new BatchRequest(sub));
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialize a batch we just parsed", e);
        }
        return forwarder.post(host, BATCH_PATH, json, authorization).handle((r, error) -> {
            List<StreamAnswer> answers = null;
            String problem = error != null ? String.valueOf(error.getMessage()) : null;
            if (r != null && r.status() == 200) {
                try {
                    answers = NotifyJson.mapper().readValue(r.body(), BatchResponse.class).results();
                } catch (IOException e) {
                    problem = "unreadable answer from " + host + ": " + e.getMessage();
                }
            } else if (r != null) {
                problem = host + " answered " + r.status();
            }
            for (int k = 0; k < indexes.size(); k++) {
                int i = indexes.get(k);
                results[i] = answers != null && k < answers.size() ? answers.get(k)
                        : StreamAnswer.error(items.get(i).stream(), 503, "forwarding failed: " + problem);
            }
            return null;
        });
    }

    /** The caller's credential, already checked by {@link QueryAuth}; a forward presents it to the owner. */
    private static String authorization(HttpServerExchange ex) {
        return ex.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
    }

    private static boolean isForwarded(HttpServerExchange ex) {
        return ex.getRequestHeaders().contains(QueryForwarder.FORWARDED_HEADER);
    }

    private static String param(HttpServerExchange ex, String name, String def) {
        Deque<String> values = ex.getQueryParameters().get(name);
        return values == null || values.isEmpty() ? def : values.getFirst();
    }

    private static void unavailable(HttpServerExchange ex, String detail) {
        HttpResponses.retryLater(ex, Problem.of(503, "unavailable", "Unavailable", detail), 1);
    }

    private static void passThrough(HttpServerExchange ex, QueryForwarder.Forwarded r) {
        ex.setStatusCode(r.status());
        ex.getResponseHeaders().put(Headers.CONTENT_TYPE, r.contentType());
        if (r.retryAfter() != null) {
            ex.getResponseHeaders().put(HttpResponses.RETRY_AFTER, r.retryAfter());
        }
        ex.getResponseSender().send(ByteBuffer.wrap(r.body()));
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "malformed batch";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
