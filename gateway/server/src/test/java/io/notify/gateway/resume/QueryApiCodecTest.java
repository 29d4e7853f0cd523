package io.notify.gateway.resume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.gateway.support.Events;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.frame.ResetReason;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryApiCodecTest {

    private static final StreamId U = StreamId.forUser("42");

    private static JsonNode json(String s) throws Exception {
        return NotifyJson.mapper().readTree(s);
    }

    @Test
    void buildsTheDocumentedRequests() {
        FetchRequest r = new FetchRequest(U, new Position("k3", 17), 100);
        assertEquals(URI.create("http://q:8090/v1/streams/u:42/events?after=17&epoch=k3&limit=100"),
                QueryApiCodec.eventsUri(URI.create("http://q:8090"), r));
        assertEquals("{\"requests\":[{\"stream\":\"u:42\",\"epoch\":\"k3\",\"after\":17,\"limit\":100}]}",
                new String(QueryApiCodec.batchBody(List.of(r)), StandardCharsets.UTF_8));
    }

    @Test
    void aFreshStartAsksFromTheOldestEventWithoutAnEpoch() {
        FetchRequest fresh = new FetchRequest(U, null, 1);
        assertEquals(URI.create("http://q:8090/v1/streams/u:42/events?after=0&limit=1"),
                QueryApiCodec.eventsUri(URI.create("http://q:8090"), fresh));
        assertEquals("{\"requests\":[{\"stream\":\"u:42\",\"after\":0,\"limit\":1}]}",
                new String(QueryApiCodec.batchBody(List.of(fresh)), StandardCharsets.UTF_8));
    }

    @Test
    void readsPagesResetsAndErrors() throws Exception {
        String event = NotifyJson.mapper().writeValueAsString(Events.durable(U, "k3", 18));
        var page = assertInstanceOf(FetchResult.Page.class, QueryApiCodec.read(U, json(
                "{\"stream\":\"u:42\",\"head\":{\"epoch\":\"k3\",\"seq\":20},\"firstSeq\":1,\"events\":[" + event + "],\"more\":true}")));
        assertEquals(18, page.events().get(0).seq());
        assertTrue(page.more());
        assertEquals(new Position("k3", 20), page.head());
        var empty = assertInstanceOf(FetchResult.Page.class, QueryApiCodec.read(U, json(
                "{\"stream\":\"u:42\",\"head\":null,\"events\":[],\"more\":false}")));
        assertEquals(null, empty.head(), "a stream with no history");
        var reset = assertInstanceOf(FetchResult.Reset.class, QueryApiCodec.read(U, json(
                "{\"stream\":\"u:42\",\"reset\":{\"reason\":\"position_too_old\",\"head\":{\"epoch\":\"k3\",\"seq\":1200},\"firstSeq\":201}}")));
        assertEquals(ResetReason.POSITION_TOO_OLD, reset.frame().reason());
        assertEquals(201L, reset.frame().firstSeq());
        var unknown = assertInstanceOf(FetchResult.Reset.class, QueryApiCodec.read(U, json(
                "{\"stream\":\"u:42\",\"reset\":{\"reason\":\"unknown_stream\"}}")));
        assertEquals(null, unknown.frame().head());
        assertInstanceOf(FetchResult.Failed.class, QueryApiCodec.read(U, json("{\"stream\":\"u:42\",\"error\":{\"status\":503,\"detail\":\"x\"}}")));
        assertInstanceOf(FetchResult.Failed.class, QueryApiCodec.read(U, json("{\"stream\":\"u:42\"}")));
        String foreign = NotifyJson.mapper().writeValueAsString(Events.durable(StreamId.forUser("43"), "k3", 1));
        assertInstanceOf(FetchResult.Failed.class, QueryApiCodec.read(U, json("{\"events\":[" + foreign + "]}")));
    }

    @Test
    void readsBatchAnswersInRequestOrder() throws Exception {
        StreamId v = StreamId.forUser("43");
        List<FetchRequest> requests = List.of(new FetchRequest(U, new Position("k3", 1), 10), new FetchRequest(v, new Position("k4", 1), 10));
        List<FetchResult> results = QueryApiCodec.readBatch(requests, json(
                "{\"results\":[{\"stream\":\"u:42\",\"events\":[],\"more\":false},{\"stream\":\"u:43\",\"error\":{\"status\":503}}]}"));
        assertInstanceOf(FetchResult.Page.class, results.get(0));
        assertEquals(v, assertInstanceOf(FetchResult.Failed.class, results.get(1)).stream());
        assertInstanceOf(FetchResult.Failed.class, QueryApiCodec.readBatch(requests, json("{\"results\":[]}")).get(1));
    }
}
