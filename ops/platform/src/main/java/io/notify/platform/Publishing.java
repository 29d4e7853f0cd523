package io.notify.platform;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Publishing through ingest's HTTP API with the platform's producer key, as a business service
 * does: the one publish call of the platform kit. A publish returns once ingest answered 202 (Kafka
 * acknowledged the write); a 503 (Kafka not ready yet, e.g. right after the platform started) is
 * retried for up to {@link #RETRY_BOUND}; any other answer is a failure naming the status and body.
 */
public final class Publishing {

    static final Duration RETRY_BOUND = Duration.ofSeconds(30);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

    private final URI events;
    private final URI recalls;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    Publishing(URI ingest) {
        this.events = ingest.resolve("/v1/events");
        this.recalls = ingest.resolve("/v1/recalls");
    }

    /** Publishing to the ingest whose API is at {@code ingest} (e.g. one started from its image). */
    public static Publishing to(URI ingest) {
        return new Publishing(ingest);
    }

    /** The JSON of a durable test event {@code id} to {@code user}, with {@code {"text": id}} as data. */
    public static String event(String user, String id) {
        return "{\"id\":\"" + id + "\",\"type\":\"test.event\",\"to\":{\"users\":[\"" + user + "\"]},\"data\":{\"text\":\"" + id + "\"}}";
    }

    /** Publishes durable event {@code id} to {@code user}. */
    public void publish(String user, String id) {
        expect202(post("application/json", event(user, id)), id);
    }

    /**
     * The JSON of test event {@code id} of class {@code eventClass} (durable, ephemeral) addressed by
     * {@code toJson}, the envelope's {@code to} object (e.g. {@code {"rooms":["chat-1"]}}).
     */
    public static String event(String toJson, String id, String eventClass) {
        return "{\"id\":\"" + id + "\",\"type\":\"test.event\",\"class\":\"" + eventClass + "\",\"to\":" + toJson
                + ",\"data\":{\"text\":\"" + id + "\"}}";
    }

    /** Publishes the event JSON {@code json} (one envelope); returns after the 202. */
    public void publishJson(String json) {
        expect202(post("application/json", json), json);
    }

    /** Publishes durable events to {@code user} as one NDJSON batch, in list order. */
    public void publishBatch(String user, List<String> ids) {
        String body = String.join("\n", ids.stream().map(id -> event(user, id)).toList());
        expect202(post("application/x-ndjson", body), ids.size() + " events");
    }

    /** Takes back event {@code id} from {@code users} ({@code DELETE /v1/events/{id}}, docs/protocol.md §3.7); returns after the 202. */
    public void recall(String id, String... users) {
        expect202(send(events.resolve("/v1/events/" + id), "DELETE", "application/json", "{\"to\":" + users(users) + "}"), "recall " + id);
    }

    /** Takes back every event carrying {@code cancellationKey} from {@code users} ({@code POST /v1/recalls}); returns after the 202. */
    public void recallByKey(String cancellationKey, String... users) {
        expect202(send(recalls, "POST", "application/json", "{\"recall\":{\"cancellationKey\":\"" + cancellationKey + "\"},\"to\":"
                + users(users) + "}"), "recall of " + cancellationKey);
    }

    private static String users(String... users) {
        return "{\"users\":[" + String.join(",", java.util.Arrays.stream(users).map(u -> "\"" + u + "\"").toList()) + "]}";
    }

    private static void expect202(HttpResponse<String> r, String what) {
        if (r.statusCode() != 202) {
            throw new IllegalStateException("publishing " + what + ": ingest answered " + r.statusCode() + " " + r.body());
        }
    }

    /** POSTs {@code body} to {@code /v1/events} with the producer key; retries 503 and refused connections for {@link #RETRY_BOUND}. */
    public HttpResponse<String> post(String contentType, String body) {
        return send(events, "POST", contentType, body);
    }

    private HttpResponse<String> send(URI uri, String method, String contentType, String body) {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .header("Authorization", "Bearer " + DevKeys.PRODUCER_KEY)
                .header("Content-Type", contentType)
                .timeout(REQUEST_TIMEOUT)
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build();
        long deadline = System.nanoTime() + RETRY_BOUND.toNanos();
        while (true) {
            String failure;
            try {
                HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 503) {
                    return r;
                }
                failure = "503 " + r.body();
            } catch (IOException e) {
                failure = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while publishing", e);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("ingest did not accept the events within " + RETRY_BOUND + ": " + failure);
            }
            LockSupport.parkNanos(200_000_000); // pause between retries of a 503 (Kafka not ready yet)
        }
    }
}
