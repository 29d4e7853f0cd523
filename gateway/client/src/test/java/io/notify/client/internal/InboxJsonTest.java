package io.notify.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.notify.client.InboxCounts;
import io.notify.client.InboxPage;
import io.notify.client.NotifyClientException;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.inbox.EventState;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The inbox API's JSON as the gateway answers it (docs/inbox-openapi.yaml). */
class InboxJsonTest {

    @Test
    void aPageIsReadWithItsEventsNewestFirstIgnoringFieldsTheSdkDoesNotUse() {
        InboxPage page = InboxJson.page("""
                {"stream":"u:42","head":{"epoch":"k3x9m2p8q7rdw5ta","seq":20},"firstSeq":1,"unread":3,"unseen":1,"version":12,
                 "events":[
                   {"event":{"stream":"u:42","epoch":"k3x9m2p8q7rdw5ta","seq":20,"id":"ord-1:shipped","type":"order.shipped",
                             "class":"durable","data":{"orderId":"ord-1"},"occurredAt":"2026-11-29T10:15:30.123+01:00",
                             "source":"orders","ingestedAt":1764410100000,"sequencedAt":1764410100005,"collapseKey":"ord-1"},
                    "state":"unseen"},
                   {"event":{"stream":"u:42","epoch":"k3x9m2p8q7rdw5ta","seq":19,"id":"ord-0:paid","type":"order.paid",
                             "data":{}},"state":"archived","newField":true}],
                 "next":19,"somethingNew":{"a":1}}
                """);
        assertEquals(StreamId.forUser("42"), page.stream());
        assertEquals(Optional.of(Position.of("k3x9m2p8q7rdw5ta", 20)), page.head());
        assertEquals(OptionalLong.of(1), page.firstSeq());
        assertEquals(new InboxCounts(3, 1, 12, page.head()), page.counts());
        assertEquals(OptionalLong.of(19), page.next());
        assertEquals(List.of(EventState.UNSEEN, EventState.ARCHIVED), page.events().stream().map(InboxPage.Item::state).toList());
        var first = page.events().get(0).event();
        assertEquals(Optional.of(Position.of("k3x9m2p8q7rdw5ta", 20)), first.position());
        assertEquals("ord-1:shipped", first.id());
        assertEquals("order.shipped", first.type());
        assertEquals("ord-1", first.data().get("orderId").asText());
        assertEquals(Optional.of(OffsetDateTime.parse("2026-11-29T10:15:30.123+01:00")), first.occurredAt());
        assertEquals(Optional.empty(), page.events().get(1).event().occurredAt());
    }

    @Test
    void anEmptyStreamsPageAndCountsHaveNoHead() {
        InboxPage page = InboxJson.page("{\"stream\":\"u:7\",\"unread\":0,\"unseen\":0,\"version\":0,\"events\":[]}");
        assertEquals(Optional.empty(), page.head());
        assertEquals(OptionalLong.empty(), page.next());
        assertEquals(List.of(), page.events());
        assertEquals(new InboxCounts(0, 0, 0, Optional.empty()),
                InboxJson.counts("{\"unread\":0,\"unseen\":0,\"version\":0,\"head\":null}"));
        assertEquals(new InboxCounts(3, 1, 12, Optional.of(Position.of("k3", 20))),
                InboxJson.counts("{\"unread\":3,\"unseen\":1,\"version\":12,\"head\":{\"epoch\":\"k3\",\"seq\":20}}"));
    }

    @Test
    void unreadableAnswersAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> InboxJson.counts("[]"));
        assertThrows(IllegalArgumentException.class, () -> InboxJson.counts("{\"unread\":\"3\",\"unseen\":1,\"version\":1}"));
        assertThrows(IllegalArgumentException.class, () -> InboxJson.page(
                "{\"stream\":\"u:7\",\"unread\":0,\"unseen\":0,\"version\":0,\"events\":[{\"state\":\"read\"}]}"));
        assertThrows(IllegalArgumentException.class, () -> InboxJson.page("{\"stream\":\"u:7\",\"unread\":0,\"unseen\":0,"
                + "\"version\":0,\"events\":[{\"event\":{\"stream\":\"u:7\",\"epoch\":\"e\",\"seq\":1,\"id\":\"a\",\"type\":\"t\"},"
                + "\"state\":\"forgotten\"}]}"));
    }

    @Test
    void aMarkBodyHasUpToOrIdsTheEpochWhenKnownAndTheDevice() throws Exception {
        assertEquals(NotifyJson.mapper().readTree("{\"upTo\":17,\"epoch\":\"k3\",\"device\":\"phone-1\"}"),
                NotifyJson.mapper().readTree(InboxJson.mark(17L, null, "k3", "phone-1")));
        assertEquals(NotifyJson.mapper().readTree("{\"ids\":[\"a\",\"b:c\"],\"device\":\"phone-1\"}"),
                NotifyJson.mapper().readTree(InboxJson.mark(null, List.of("a", "b:c"), null, "phone-1")));
    }

    @Test
    void aProblemAnswerBecomesAnInboxErrorWithItsStatusTypeAndDetail() {
        NotifyClientException e = InboxJson.problem("POST /v1/inbox/read", 400, Optional.of("application/problem+json"),
                "{\"type\":\"urn:notify:problem:invalid-body\",\"title\":\"Invalid body\",\"status\":400,\"detail\":\"give exactly one\"}");
        assertEquals(NotifyClientException.Kind.INBOX, e.kind());
        assertEquals(OptionalInt.of(400), e.httpStatus());
        assertEquals(Optional.of("urn:notify:problem:invalid-body"), e.problemType());
        assertEquals(Optional.of("give exactly one"), e.problemDetail());
        assertEquals("POST /v1/inbox/read answered HTTP 400 urn:notify:problem:invalid-body: give exactly one", e.getMessage());

        NotifyClientException plain = InboxJson.problem("GET /v1/inbox", 502, Optional.of("text/html"), "<html>bad gateway</html>");
        assertEquals(OptionalInt.of(502), plain.httpStatus());
        assertEquals(Optional.empty(), plain.problemType());
    }
}
