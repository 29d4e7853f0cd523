package io.notify.cli.bench.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.platform.QueryApi;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.stream.Position;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Reads inbox heads from the fanout-streams query API (batch form, {@code POST /v1/streams:events},
 * 500 streams a call, with the stack's service token) until every user's stream is sequenced up to
 * an expected seq: the point at which published events are "in the inbox" and a resume can replay them.
 */
final class InboxHeads {

    private static final int BATCH = 500;

    private InboxHeads() {
    }

    /**
     * Waits until the head of each user 0..users-1 is at least {@code expected[u]}; returns the heads.
     * Fails past {@code bound}, naming how many streams are behind.
     */
    static Map<Integer, Position> await(QueryApi queryApi, int users, long[] expected, Duration bound,
                                        Consumer<String> progress) throws IOException, InterruptedException {
        Map<Integer, Position> heads = new HashMap<>();
        List<Integer> behind = new ArrayList<>();
        for (int u = 0; u < users; u++) {
            behind.add(u);
        }
        long deadline = System.nanoTime() + bound.toNanos();
        long nextProgress = System.nanoTime() + 5_000_000_000L;
        while (true) {
            List<Integer> still = new ArrayList<>();
            for (int i = 0; i < behind.size(); i += BATCH) {
                List<Integer> part = behind.subList(i, Math.min(behind.size(), i + BATCH));
                List<Position> got = fetch(queryApi, part);
                for (int j = 0; j < part.size(); j++) {
                    int u = part.get(j);
                    Position p = got.get(j);
                    if (p != null && p.seq() >= expected[u]) {
                        heads.put(u, p);
                    } else {
                        still.add(u);
                    }
                }
            }
            behind = still;
            if (behind.isEmpty()) {
                return heads;
            }
            long now = System.nanoTime();
            if (now - deadline > 0) {
                throw new IOException(behind.size() + " of " + users + " inboxes not sequenced up to the expected seq within "
                        + bound + " (e.g. " + BenchUsers.stream(behind.get(0)) + ")");
            }
            if (now - nextProgress > 0) {
                progress.accept("waiting for sequencing: " + (users - behind.size()) + "/" + users + " inboxes up to date");
                nextProgress = now + 5_000_000_000L;
            }
            TimeUnit.MILLISECONDS.sleep(250); // poll interval of a bounded wait on the inboxes
        }
    }

    /** The head of each user's stream (null when unknown or not answerable now), in request order. */
    private static List<Position> fetch(QueryApi queryApi, List<Integer> users) throws IOException, InterruptedException {
        ObjectNode body = NotifyJson.mapper().createObjectNode();
        ArrayNode requests = body.putArray("requests");
        for (int u : users) {
            requests.addObject().put("stream", BenchUsers.stream(u).value()).put("after", 0).put("limit", 1);
        }
        List<Position> out = new ArrayList<>();
        HttpResponse<String> r;
        try {
            r = queryApi.post("/v1/streams:events", NotifyJson.mapper().writeValueAsString(body), Duration.ofSeconds(10));
        } catch (IOException e) {
            users.forEach(u -> out.add(null)); // slow or unreachable now (a busy machine): the caller's bound decides
            return out;
        }
        if (r.statusCode() == 401) {
            throw new IOException("the query API refused the stack's service token: " + r.body());
        }
        if (r.statusCode() != 200) {
            users.forEach(u -> out.add(null)); // e.g. 503 while the store is not queryable: try again
            return out;
        }
        JsonNode results = NotifyJson.mapper().readTree(r.body()).path("results");
        for (int i = 0; i < users.size(); i++) {
            JsonNode head = results.path(i).path("head");
            out.add(head.isObject() ? new Position(head.path("epoch").asText(), head.path("seq").asLong()) : null);
        }
        return out;
    }
}
