package io.notify.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.schemas.validation.EventValidator;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The pure parts of {@code bench fanout}: events, metric and INFO parsing, medians, the routing window. */
class FanoutBenchPartsTest {

    @Test
    void eventsHaveTheRequestedSizeAndAreValidV1Envelopes() {
        FanoutEvents events = new FanoutEvents(300);
        byte[] value = events.value("bf-1-12345", FanoutEvents.user(9876));
        assertEquals(300, value.length);
        assertEquals(List.of(), EventValidator.v1().validate(EventValidator.readTree(value)));
        assertTrue(new String(value).contains("\"users\":[\"user-9876\"]"));
        assertThrows(IllegalArgumentException.class, () -> new FanoutEvents(50));
    }

    @Test
    void eventsForManyRecipientsNameDistinctUsersAndStayValid() {
        FanoutEvents events = new FanoutEvents(300, 1000);
        List<String> to = EventPreload.recipients(new java.util.SplittableRandom(7), 1500, 1000);
        assertEquals(1000, new java.util.HashSet<>(to).size());
        byte[] value = events.value("bf-1-1", to);
        assertTrue(value.length > 300, "the recipients outgrow the pad");
        assertEquals(List.of(), EventValidator.v1().validate(EventValidator.readTree(value)));
        assertEquals(to, EventPreload.recipients(new java.util.SplittableRandom(7), 1500, 1000), "seeded");
        assertThrows(IllegalArgumentException.class, () -> EventPreload.recipients(new java.util.SplittableRandom(7), 5, 6));
        assertThrows(IllegalArgumentException.class, () -> new FanoutEvents(300, 1001));
    }

    @Test
    void commandStatsParsesCallsAndSubtracts() {
        CommandStats before = CommandStats.parse("""
                # Commandstats\r
                cmdstat_zrange:calls=10,usec=80,usec_per_call=8.00,rejected_calls=0,failed_calls=0\r
                cmdstat_mget:calls=4,usec=10,usec_per_call=2.50\r
                cmdstat_client|tracking:calls=1,usec=3,usec_per_call=3.00\r
                """);
        CommandStats after = CommandStats.parse("""
                cmdstat_zrange:calls=110,usec=800,usec_per_call=7.27
                cmdstat_mget:calls=9,usec=20,usec_per_call=2.22
                cmdstat_client|tracking:calls=1,usec=3,usec_per_call=3.00
                cmdstat_zadd:calls=50,usec=500,usec_per_call=10.00
                """);
        assertEquals(14, before.routerReads());
        CommandStats delta = after.minus(before);
        assertEquals(105, delta.routerReads());
        assertEquals(50, delta.calls("zadd"));
        assertEquals(0, delta.calls("client|tracking"));
        assertTrue(!delta.calls().containsKey("client|tracking"));
    }

    @Test
    void medianOfOddEvenAndNone() {
        assertEquals(2.0, FanoutReport.median(List.of(3.0, 1.0, 2.0)));
        assertEquals(2.5, FanoutReport.median(List.of(4.0, 1.0, 3.0, 2.0)));
        assertEquals(0.0, FanoutReport.median(List.of()));
    }

    @Test
    void routingWindowCountsFromFirstProgressAndSplitsSteadyState() {
        long s = 1_000_000_000L;
        List<RoutingWindow.Sample> samples = List.of(
                new RoutingWindow.Sample(0, 0, 0, 0),            // ready
                new RoutingWindow.Sample(s, 0, 0, 0),            // rebalancing, nothing yet
                new RoutingWindow.Sample(2 * s, 100, 100, 150),  // first progress
                new RoutingWindow.Sample(4 * s, 600, 500, 700),  // past half
                new RoutingWindow.Sample(6 * s, 1000, 520, 740)); // all routed
        RoutingWindow w = RoutingWindow.of(samples, 1000);
        assertEquals(4.0, w.seconds(), 1e-9);
        assertEquals(225.0, w.eventsPerSecond(), 1e-9); // 900 events over 4 s, not 1000 over 6 s
        assertEquals(200.0, w.steadyEventsPerSecond(), 1e-9); // the last 400 events over 2 s
        assertEquals(0.52, w.readsPerEvent(), 1e-9);
        assertEquals(0.05, w.steadyReadsPerEvent(), 1e-9); // 20 reads over the last 400 events
        assertEquals(0.74, w.commandsPerEvent(), 1e-9);
        assertEquals(0.1, w.steadyCommandsPerEvent(), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> RoutingWindow.of(samples.subList(0, 4), 1000));
    }

    @Test
    void childResultIsTheLastResultLine() {
        assertEquals(Optional.of("{\"b\":2}"), ChildLoad.lastResult(List.of("log line", "bench-result {\"a\":1}",
                "INFO more", "bench-result {\"b\":2}", "shutdown")));
        assertEquals(Optional.empty(), ChildLoad.lastResult(List.of("crashed")));
    }
}
