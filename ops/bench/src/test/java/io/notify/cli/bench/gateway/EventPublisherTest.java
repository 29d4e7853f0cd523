package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.notify.schemas.validation.EventValidator;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventPublisherTest {

    @Test
    void benchmarkEventsAreValidV1Envelopes() {
        byte[] value = EventPublisher.event("gs1-42-3", BenchUsers.user(42), 3, 1764410130123L);
        assertEquals("{\"id\":\"gs1-42-3\",\"type\":\"bench.gateway\",\"to\":{\"users\":[\"gw-user-42\"]},\"class\":\"durable\","
                + "\"data\":{\"n\":3,\"sentAtMs\":1764410130123}}", new String(value));
        assertEquals(List.of(), EventValidator.v1().validate(EventValidator.readTree(value)));
    }
}
