package io.notify.gateway.inbox;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.common.http.PublicHosts;
import io.notify.common.limits.TokenBucket;
import io.notify.gateway.admission.Cors;
import io.notify.gateway.admission.HandshakeGate;
import io.notify.gateway.config.InboxSettings;
import io.notify.gateway.metrics.InboxMetrics;
import io.notify.gateway.receipts.KafkaStreamSink;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.StreamId;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RoutingHandler;
import io.undertow.util.Headers;
import io.undertow.util.SameThreadExecutor;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A user's push registrations on the client port (docs/push.md, "Registering a device"):
 * {@code POST /v1/push/registrations} with exactly one of {@code {"webpush": <PushSubscription.toJSON()>}},
 * {@code {"fcm": {"token"}}} and {@code {"apns": {"token", "topic", "environment"}}} → {@code 201}
 * with the registration's {@code id} (derived from the address: the same device registered again
 * keeps its id), once {@code notify.push-changes} acknowledged it; {@code GET} lists the user's
 * registrations (never their keys or tokens; a Web Push one with its endpoint);
 * {@code DELETE /v1/push/registrations/{id}} → {@code 204}, or {@code 404} for an id the user does
 * not have; {@code GET /v1/push/config} → the VAPID public key browsers subscribe with. The same checks as the inbox API first ({@link UserRequests}: CORS, method, origin and
 * token, the inbox bucket), then the body: {@code 415} not JSON, {@code 413} over
 * {@value InboxSettings#MAX_BODY_BYTES} bytes, {@code 400 invalid-body} with the field at fault (a
 * Web Push endpoint must be {@code https} on a public host unless
 * {@code notify.gateway.push.allow-private-endpoints}). fanout-streams applies the change where the
 * user's stream lives and keeps at most {@code notify.fanout.push.max-registrations} per user (the
 * oldest goes). A list read right after a change may not show it yet: the change is applied
 * asynchronously, usually within a commit.
 */
public final class PushRegistrationEndpoints {

    static final String PATH = "/v1/push/registrations";
    static final String CONFIG_PATH = "/v1/push/config";

    /** A registration request: exactly one member. */
    @JsonIgnoreProperties(ignoreUnknown = false)
    record Request(PushRegistration.WebPush webpush, PushRegistration.Fcm fcm, PushRegistration.Apns apns) {
    }

    /** What the user sees of one registration: never the Web Push keys or a token. */
    @JsonPropertyOrder({"id", "provider", "createdAt", "endpoint", "topic", "environment"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record View(String id, String provider, long createdAt, String endpoint, String topic, String environment) {
        static View of(PushRegistration r) {
            return new View(r.id(), r.provider(), r.createdAt(), r.webpush() == null ? null : r.webpush().endpoint(),
                    r.apns() == null ? null : r.apns().topic(), r.apns() == null ? null : r.apns().environment());
        }
    }

    /** The answer to {@code GET}. */
    public record Listing(List<View> registrations) {
    }

    /** The answer to {@code GET /v1/push/config}: what a client needs to subscribe (null members: that provider is off). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Config(WebPushConfig webpush) {
        /** {@code applicationServerKey}: the VAPID public key, base64url, for {@code PushManager.subscribe}. */
        public record WebPushConfig(String applicationServerKey) {
        }
    }

    private final UserRequests requests;
    private final InboxSource source;
    private final KafkaStreamSink<PushChange> changes;
    private final boolean allowPrivate;
    private final Config config;
    private final Duration produceDeadline;
    private final Clock clock;
    private final InboxMetrics metrics;

    /** @param changes the node's producer of {@code notify.push-changes}, or null on a node without Kafka (answers 503) */
    public PushRegistrationEndpoints(HandshakeGate gate, TokenBucket requests, InboxSource source, KafkaStreamSink<PushChange> changes,
                                     InboxSettings settings, Duration queryDeadline, Clock clock, InboxMetrics metrics) {
        this.requests = new UserRequests(gate, new Cors(gate, InboxEndpoints.TRANSPORT, "GET, POST, DELETE",
                "Authorization, Content-Type"), requests, queryDeadline, metrics,
                "push registrations cannot be reached right now; retry after the delay (a registration may be sent again)");
        this.source = source;
        this.changes = changes;
        this.allowPrivate = settings.pushAllowPrivateEndpoints();
        this.config = new Config(settings.pushVapidPublicKey() == null ? null : new Config.WebPushConfig(settings.pushVapidPublicKey()));
        this.produceDeadline = settings.produceTimeout().multipliedBy(2);
        this.clock = clock;
        this.metrics = metrics;
    }

    public void addTo(RoutingHandler routes) {
        HttpHandler list = requests.handler("GET", "GET, POST", "push_list", this::list);
        HttpHandler register = requests.handler("POST", "GET, POST", "push_register", this::register);
        HttpHandler unregister = requests.handler("DELETE", "DELETE", "push_unregister", this::unregister);
        HttpHandler config = requests.handler("GET", "GET", "push_config", (ex, stream, endpoint, t0) -> {
            metrics.request(endpoint, "ok", t0);
            HttpResponses.json(ex, 200, this.config);
        });
        routes.get(CONFIG_PATH, config).add("OPTIONS", CONFIG_PATH, config).post(CONFIG_PATH, config);
        routes.get(PATH, list).post(PATH, register).add("OPTIONS", PATH, list)
                .delete(PATH + "/{id}", unregister).add("OPTIONS", PATH + "/{id}", unregister)
                .get(PATH + "/{id}", unregister).post(PATH + "/{id}", unregister);
    }

    private void list(HttpServerExchange exchange, StreamId stream, String endpoint, long t0) {
        requests.ask(exchange, endpoint, t0, () -> source.pushRegistrations(stream),
                body -> NotifyJson.mapper().writeValueAsBytes(new Listing(read(body).registrations().stream().map(View::of).toList())));
    }

    private void register(HttpServerExchange exchange, StreamId stream, String endpoint, long t0) {
        requests.jsonBody(exchange, endpoint, t0, (ex, body) -> {
            PushRegistration registration;
            try {
                registration = parse(body, clock.millis());
            } catch (IllegalArgumentException e) {
                requests.refuse(ex, endpoint, t0, "bad_request", Problem.of(400, "invalid-body", "Invalid body", e.getMessage()));
                return;
            }
            ex.dispatch(SameThreadExecutor.INSTANCE, () -> write(ex, endpoint, t0, PushChange.register(stream, registration,
                    clock.millis()), () -> {
                        ex.getResponseHeaders().put(Headers.LOCATION, PATH + "/" + registration.id());
                        HttpResponses.json(ex, 201, View.of(registration));
                    }));
        });
    }

    private void unregister(HttpServerExchange exchange, StreamId stream, String endpoint, long t0) {
        Deque<String> ids = exchange.getQueryParameters().get("id");
        String id = ids == null ? null : ids.peekFirst();
        if (id == null || !PushRegistration.ID.matcher(id).matches()) {
            requests.refuse(exchange, endpoint, t0, "bad_request", Problem.of(400, "bad-request", "Bad request",
                    "a registration id is pr_ and 22 base64url characters"));
            return;
        }
        // known to the user? the query API says; then the removal goes to Kafka like a registration
        exchange.dispatch(SameThreadExecutor.INSTANCE, () -> source.pushRegistrations(stream).toCompletableFuture()
                .orTimeout(produceDeadline.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((answer, error) -> {
                    PushRegistrations held = null;
                    if (answer instanceof InboxSource.Answer.Json json && json.status() == 200) {
                        try {
                            held = read(json.body());
                        } catch (IOException e) {
                            error = e;
                        }
                    }
                    if (held == null) {
                        requests.unavailable(exchange, endpoint, t0, "no list of registrations: " + (error != null ? error : answer));
                    } else if (held.find(id) == null) {
                        requests.refuse(exchange, endpoint, t0, "not_found", Problem.of(404, "not-found", "Not found",
                                "no push registration " + id + " for this user"));
                    } else {
                        write(exchange, endpoint, t0, PushChange.unregister(stream, id, clock.millis()), () -> {
                            exchange.setStatusCode(204);
                            exchange.endExchange();
                        });
                    }
                }));
    }

    /**
     * Writes {@code change} to notify.push-changes and runs {@code answer} once Kafka acknowledged it (503 otherwise);
     * the exchange is already dispatched (the answer comes from the producer's thread).
     */
    private void write(HttpServerExchange exchange, String endpoint, long t0, PushChange change, Runnable answer) {
        requests.afterWrite(exchange, endpoint, t0, changes == null ? null : () -> changes.send(change), produceDeadline, answer);
    }

    /** The registration a body asks for; IllegalArgumentException names what is wrong. */
    PushRegistration parse(byte[] body, long now) {
        Request request;
        try {
            request = NotifyJson.mapper().readValue(body, Request.class);
        } catch (JsonProcessingException e) {
            Throwable cause = e.getCause();
            throw new IllegalArgumentException(cause instanceof IllegalArgumentException ? cause.getMessage()
                    : "the body must be one of {\"webpush\": …}, {\"fcm\": …}, {\"apns\": …}: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("unreadable body: " + e.getMessage());
        }
        if (request == null) {
            throw new IllegalArgumentException("the body must be one of {\"webpush\": …}, {\"fcm\": …}, {\"apns\": …}");
        }
        if (request.webpush() != null && !allowPrivate) {
            if (!request.webpush().uri().getScheme().equalsIgnoreCase("https")) {
                throw new IllegalArgumentException("webpush.endpoint must be an https URL");
            }
            if (!PublicHosts.looksPublic(request.webpush().uri().getHost())) {
                throw new IllegalArgumentException("webpush.endpoint must name a public host, got " + request.webpush().uri().getHost());
            }
        }
        return PushRegistration.of(request.webpush(), request.fcm(), request.apns(), now);
    }

    private static PushRegistrations read(byte[] queryApiBody) throws IOException {
        return NotifyJson.mapper().readValue(queryApiBody, PushRegistrations.class);
    }
}
