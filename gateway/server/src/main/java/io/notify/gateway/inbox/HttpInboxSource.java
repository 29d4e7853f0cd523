package io.notify.gateway.inbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.gateway.query.QueryApiClient;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.stream.StreamId;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletionStage;

/**
 * The inbox endpoints of the fanout-streams query API (docs/query-api.md) over the node's
 * {@link QueryApiClient}: the same service token, URLs, TLS trust and timeout as resume, and its
 * rotation: a 200 or a 400 is the answer; a 503, a 401, any other status, a transport error or (for
 * {@code /state}) an unreadable 200 moves on to the next URL, and when none answered the stage
 * completes with {@link Answer.Unavailable}.
 */
public final class HttpInboxSource implements InboxSource {

    private final QueryApiClient client;

    public HttpInboxSource(QueryApiClient client) {
        this.client = client;
    }

    @Override
    public CompletionStage<Answer> page(StreamId stream, InboxQuery query) {
        return get(URI.create("/v1/streams/" + stream.value() + "/inbox?" + query.queryString()), false);
    }

    @Override
    public CompletionStage<Answer> state(StreamId stream) {
        return get(URI.create("/v1/streams/" + stream.value() + "/state"), true);
    }

    @Override
    public CompletionStage<Answer> pushRegistrations(StreamId stream) {
        return get(URI.create("/v1/streams/" + stream.value() + "/push-registrations"), false);
    }

    @Override
    public CompletionStage<Answer> preferences(StreamId stream) {
        return get(URI.create("/v1/streams/" + stream.value() + "/preferences"), false);
    }

    private CompletionStage<Answer> get(URI path, boolean checkCounts) {
        return client.call(base -> HttpRequest.newBuilder(URI.create(base + path.toString())).GET(),
                response -> read(response, checkCounts), Answer.Unavailable::new);
    }

    private static QueryApiClient.Answer<Answer> read(HttpResponse<byte[]> response, boolean checkCounts) throws Exception {
        int status = response.statusCode();
        if (status == 200 && checkCounts) {
            JsonNode root = NotifyJson.mapper().readTree(response.body());
            if (!InboxCounts.readable(root)) {
                return QueryApiClient.next("a state answer without counts");
            }
        }
        return status == 200 || status == 400 ? QueryApiClient.done(new Answer.Json(status, response.body()))
                : QueryApiClient.next("HTTP " + status);
    }

    @Override
    public void close() {
        client.close();
    }
}
