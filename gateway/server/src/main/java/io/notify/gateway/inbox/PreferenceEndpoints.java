package io.notify.gateway.inbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.common.limits.TokenBucket;
import io.notify.gateway.admission.Cors;
import io.notify.gateway.admission.HandshakeGate;
import io.notify.gateway.config.InboxSettings;
import io.notify.gateway.metrics.InboxMetrics;
import io.notify.gateway.receipts.KafkaStreamSink;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.stream.StreamId;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RoutingHandler;
import io.undertow.util.SameThreadExecutor;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;

/**
 * A user's preferences on the client port (docs/inbox.md, "Preferences"): {@code GET /v1/preferences}
 * answers the user's document ({@code types}, {@code categories}, {@code quietHours}; empty when they set
 * none); {@code PUT} replaces it with the body and answers the stored document once
 * {@code notify.preferences} acknowledged it; {@code DELETE} resets the user to none (a tombstone) and
 * answers {@code 204}. The same checks as the inbox API first ({@link UserRequests}: CORS, method, origin
 * and token, the inbox bucket), then the body: {@code 415} not JSON, {@code 413} over
 * {@value InboxSettings#MAX_BODY_BYTES} bytes, {@code 400 invalid-body} naming the field at fault (an
 * unknown field, a bad type or category key, more than {@value Preferences#MAX_TYPES} types or
 * {@value Preferences#MAX_CATEGORIES} categories, quiet hours that are not {@code HH:mm} in an IANA
 * zone). fanout-streams applies the change where the user's stream lives, to the events sequenced
 * after it; a {@code GET} right after a change may answer the previous document until then (usually
 * within a commit).
 */
public final class PreferenceEndpoints {

    static final String PATH = "/v1/preferences";
    private static final ObjectReader STRICT = NotifyJson.mapper().readerFor(Preferences.class)
            .with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private final UserRequests requests;
    private final InboxSource source;
    private final KafkaStreamSink<UserPreferences> sink;
    private final Duration produceDeadline;
    private final Clock clock;

    /** @param sink the node's producer of {@code notify.preferences}, or null on a node without Kafka (answers 503) */
    public PreferenceEndpoints(HandshakeGate gate, TokenBucket requests, InboxSource source, KafkaStreamSink<UserPreferences> sink,
                               InboxSettings settings, Duration queryDeadline, Clock clock, InboxMetrics metrics) {
        this.requests = new UserRequests(gate, new Cors(gate, InboxEndpoints.TRANSPORT, "GET, PUT, DELETE",
                "Authorization, Content-Type"), requests, queryDeadline, metrics,
                "preferences cannot be reached right now; retry after the delay");
        this.source = source;
        this.sink = sink;
        this.produceDeadline = settings.produceTimeout().multipliedBy(2);
        this.clock = clock;
    }

    public void addTo(RoutingHandler routes) {
        String allowed = "GET, PUT, DELETE";
        HttpHandler get = requests.handler("GET", allowed, "preferences_get", this::get);
        HttpHandler put = requests.handler("PUT", allowed, "preferences_put", this::put);
        HttpHandler delete = requests.handler("DELETE", allowed, "preferences_delete", this::delete);
        routes.get(PATH, get).put(PATH, put).delete(PATH, delete).add("OPTIONS", PATH, get).post(PATH, get);
    }

    private void get(HttpServerExchange exchange, StreamId stream, String endpoint, long t0) {
        requests.ask(exchange, endpoint, t0, () -> source.preferences(stream),
                body -> NotifyJson.mapper().writeValueAsBytes(NotifyJson.mapper().readValue(body, UserPreferences.class).preferences()));
    }

    private void put(HttpServerExchange exchange, StreamId stream, String endpoint, long t0) {
        requests.jsonBody(exchange, endpoint, t0, (ex, body) -> {
            Preferences prefs;
            try {
                prefs = parse(body);
            } catch (IllegalArgumentException e) {
                requests.refuse(ex, endpoint, t0, "bad_request", Problem.of(400, "invalid-body", "Invalid body", e.getMessage()));
                return;
            }
            UserPreferences record = new UserPreferences(stream, prefs, clock.millis());
            ex.dispatch(SameThreadExecutor.INSTANCE, () -> requests.afterWrite(ex, endpoint, t0,
                    sink == null ? null : () -> sink.send(record), produceDeadline, () -> HttpResponses.json(ex, 200, prefs)));
        });
    }

    private void delete(HttpServerExchange exchange, StreamId stream, String endpoint, long t0) {
        exchange.dispatch(SameThreadExecutor.INSTANCE, () -> requests.afterWrite(exchange, endpoint, t0,
                sink == null ? null : () -> sink.remove(stream), produceDeadline, () -> {
                    exchange.setStatusCode(204);
                    exchange.endExchange();
                }));
    }

    /** The preferences a body sets; IllegalArgumentException names what is wrong. */
    static Preferences parse(byte[] body) {
        Preferences prefs;
        try {
            prefs = STRICT.readValue(body);
        } catch (JsonProcessingException e) {
            Throwable cause = e.getCause();
            throw new IllegalArgumentException(cause instanceof IllegalArgumentException ? cause.getMessage()
                    : "the body must be {\"types\": {…}, \"categories\": {…}, \"quietHours\": {…}}: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("unreadable body: " + e.getMessage());
        }
        if (prefs == null) {
            throw new IllegalArgumentException("the body must be a JSON object, e.g. {\"types\": {\"order.shipped\": {\"push\": false}}}");
        }
        return prefs;
    }
}
