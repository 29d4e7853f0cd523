package io.notify.cli.bench.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.cli.bench.gateway.ClientFleet;
import io.notify.cli.bench.gateway.IdCheck;
import io.notify.platform.QueryApi;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a lost event stopped, asked of the stack while it still runs: for each sampled lost event
 * of a step, its recipient's inbox (the query API, any fanout instance) is searched for it by
 * {@code data.run} and {@code data.n}. Found means fanout sequenced it and the gateway or the
 * client did not deliver it (the client's position tells which seqs it had); absent means it was
 * never sequenced, or already trimmed from the inbox. A sequenced one is then looked for in the
 * node topic of the gateway that holds its client, read committed and uncommitted: whether fanout
 * routed it there, and whether that write committed.
 */
final class LostEvents {

    /** Where to look for delivery messages: the node topic of the gateway holding a user, scanned once for many ids. */
    interface NodeTopics {
        String topicOf(int userIndex);

        /** For each of {@code eventIds}, where the records carrying it sit in {@code topic}, by isolation level. */
        Map<String, String> find(String topic, Set<String> eventIds);
    }

    /** What the inbox says of one event, and its id when it holds it (null otherwise). */
    private record InInbox(String says, String eventId) {
    }

    /** Pages of {@value #PAGE} events read per stream at most. */
    private static final int PAGES = 20;
    private static final int PAGE = 1000;
    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(3);

    private LostEvents() {
    }

    /** One line per sampled lost event of {@code run}; each node topic is read once for all of them. */
    static List<String> attribute(QueryApi queryApi, NodeTopics nodeTopics, String run, int users, IdCheck check)
            throws IOException, InterruptedException {
        List<InInbox> inbox = new ArrayList<>();
        Map<String, Set<String>> idsByTopic = new LinkedHashMap<>();
        for (long n : check.lostSamples()) {
            InInbox found = find(queryApi, stream(n, users), run, n);
            inbox.add(found);
            if (found.eventId() != null) {
                idsByTopic.computeIfAbsent(nodeTopics.topicOf((int) (n % users)), t -> new LinkedHashSet<>()).add(found.eventId());
            }
        }
        Map<String, String> routed = new HashMap<>();
        idsByTopic.forEach((topic, ids) -> routed.putAll(nodeTopics.find(topic, ids)));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < inbox.size(); i++) {
            long n = check.lostSamples().get(i);
            String client = i < check.lostPositions().size() ? check.lostPositions().get(i) : "?";
            InInbox found = inbox.get(i);
            out.add("n=" + n + " " + stream(n, users) + " (client at " + client + "): " + found.says()
                    + (found.eventId() == null ? "" : "; node topic: " + routed.get(found.eventId())));
        }
        return out;
    }

    private static String stream(long n, int users) {
        return "u:" + ClientFleet.user((int) (n % users));
    }

    private static InInbox find(QueryApi queryApi, String stream, String run, long n) throws IOException, InterruptedException {
        long after = 0;
        String head = "?";
        List<String> copies = new ArrayList<>();
        String id = null;
        for (int page = 0; page < PAGES; page++) {
            HttpResponse<String> r = queryApi.get("/v1/streams/" + URLEncoder.encode(stream, StandardCharsets.UTF_8)
                    + "/events?after=" + after + "&limit=" + PAGE, HTTP_TIMEOUT);
            if (r.statusCode() != 200) {
                return new InInbox("query API answered " + r.statusCode() + ": " + r.body(), null);
            }
            JsonNode body = NotifyJson.mapper().readTree(r.body());
            if (body.has("reset")) {
                return new InInbox("query API reset " + body.get("reset"), null);
            }
            head = body.path("head").path("epoch").asText() + ":" + body.path("head").path("seq").asLong() + ", firstSeq "
                    + body.path("firstSeq").asLong();
            for (JsonNode e : body.path("events")) {
                if (run.equals(e.path("data").path("run").asText()) && e.path("data").path("n").asLong(-1) == n) {
                    copies.add(e.path("epoch").asText() + ":" + e.path("seq").asLong() + " id " + e.path("id").asText());
                    id = e.path("id").asText();
                }
                after = e.path("seq").asLong();
            }
            if (!body.path("more").asBoolean()) {
                break;
            }
        }
        return copies.isEmpty() ? new InInbox("not in the inbox (head " + head + "): never sequenced (yet), or trimmed", null)
                : new InInbox("sequenced at " + String.join(" and ", copies) + " (head " + head + ")", id);
    }
}
