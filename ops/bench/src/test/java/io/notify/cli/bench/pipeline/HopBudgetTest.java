package io.notify.cli.bench.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.bench.PrometheusText;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class HopBudgetTest {

    private static PrometheusText scrape(double okBelow1ms, double okBelow10ms, double total, double sumSeconds) {
        return new PrometheusText("""
                # TYPE notify_gateway_hop_latency_seconds histogram
                notify_gateway_hop_latency_seconds_bucket{hop="node_topic",le="0.001",} %s
                notify_gateway_hop_latency_seconds_bucket{hop="node_topic",le="0.01",} %s
                notify_gateway_hop_latency_seconds_bucket{hop="node_topic",le="+Inf",} %s
                notify_gateway_hop_latency_seconds_count{hop="node_topic",} %s
                notify_gateway_hop_latency_seconds_sum{hop="node_topic",} %s
                notify_gateway_hop_latency_seconds_count{hop="ingest",} 5.0
                notify_gateway_hop_latency_seconds_sum{hop="ingest",} 0.005
                """.formatted(okBelow1ms, okBelow10ms, total, total, sumSeconds));
    }

    @Test
    void theBudgetIsTheDifferenceOfTwoScrapesSummedOverGateways() {
        List<PrometheusText> before = List.of(scrape(10, 10, 10, 0.005), scrape(0, 0, 0, 0));
        List<PrometheusText> after = List.of(scrape(60, 110, 110, 0.505), scrape(50, 100, 100, 0.45));
        List<HopBudget.Hop> hops = HopBudget.between(before, after);
        assertEquals(1, hops.size(), "a hop that saw nothing in the step is left out: " + hops);
        HopBudget.Hop h = hops.get(0);
        assertEquals("node_topic", h.hop());
        assertEquals(200, h.count());
        assertEquals(0.95 / 200 * 1000, h.meanMs(), 1e-9);
        assertEquals(1.0, h.p50Ms(), 1e-9, "half of the 200 fell at or under 1 ms");
        assertEquals(1 + 9 * (198 - 100) / 100.0, h.p99Ms(), 1e-9, "interpolated inside the 1..10 ms bucket");
    }

    private static PrometheusText totals(double count) {
        return new PrometheusText("""
                notify_gateway_hop_latency_seconds_bucket{hop="total",le="+Inf",} %s
                notify_gateway_hop_latency_seconds_count{hop="total",} %s
                notify_gateway_hop_latency_seconds_sum{hop="total",} %s
                """.formatted(count, count, count / 100));
    }

    @Test
    void aBudgetPrintsAsOneLine() {
        List<HopBudget.Hop> hops = HopBudget.between(List.of(totals(500)), List.of(totals(700)));
        assertEquals("200 events — ms mean/p50/p99: total 10/0/0", HopBudget.line(hops),
                "2 s over 200 events; all in the +Inf bucket, so the quantiles stop at the last finite bound (none: 0)");
        assertEquals("none — ms mean/p50/p99: ", HopBudget.line(List.of()));
    }

    @Test
    void quantilesInterpolateInsideTheirBucketAndStopAtTheLastFiniteBound() {
        TreeMap<Double, Double> c = new TreeMap<>(Map.of(0.001, 0.0, 0.002, 10.0, 0.004, 20.0, Double.POSITIVE_INFINITY, 30.0));
        assertEquals(0.001 + 0.001 * 7.5 / 10, HopBudget.quantile(c, 0.25), 1e-12, "7.5 of 30 falls 3/4 into the 1..2 ms bucket");
        assertEquals(0.004, HopBudget.quantile(c, 0.99), 1e-12, "in the +Inf bucket: the highest finite bound");
        assertTrue(Double.isNaN(HopBudget.quantile(new TreeMap<>(), 0.5)));
    }

    @Test
    void setValuesAreGroupedPerServiceAndMalformedOnesNamed() {
        Map<String, Map<String, String>> s = PipelineMath.serviceSettings(
                List.of("fanout:notify.fanout.linger=1ms", "gateway:notify.gateway.x=a=b"));
        assertEquals(Map.of("notify.fanout.linger", "1ms"), s.get("fanout"));
        assertEquals(Map.of("notify.gateway.x", "a=b"), s.get("gateway"));
        assertEquals(Map.of(), s.get("ingest"));
        for (String bad : List.of("fanout", "broker:k=v", "fanout:=v", ":k=v", "fanout:k")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PipelineMath.serviceSettings(List.of(bad)));
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
    }

    @Test
    void deliveryPathsCountWhatTheSafetyNetCarriedBetweenTwoScrapes() {
        PrometheusText before = new PrometheusText("""
                notify_gateway_events_delivered_total{class="durable",path="live",} 100.0
                notify_gateway_events_delivered_total{class="durable",path="replay",} 10.0
                notify_gateway_recheck_found_total 1.0
                """);
        PrometheusText after = new PrometheusText("""
                notify_gateway_events_delivered_total{class="durable",path="live",} 9100.0
                notify_gateway_events_delivered_total{class="ephemeral",path="live",} 900.0
                notify_gateway_events_delivered_total{class="durable",path="replay",} 20.0
                notify_gateway_recheck_found_total 3.0
                notify_gateway_gap_fills_total 4.0
                notify_gateway_closes_total{code="4008",transport="ws",} 1.0
                notify_gateway_resets_total{reason="epoch_mismatch",} 2.0
                notify_gateway_duplicates_dropped_total 7.0
                notify_gateway_delivery_messages_total{outcome="delivered",} 9000.0
                notify_gateway_delivery_messages_total{outcome="no_connection",} 3.0
                """);
        DeliveryPaths d = DeliveryPaths.between(List.of(before), List.of(after));
        assertEquals(new DeliveryPaths(9900, 10, 2, 4, 1, 2, 7, 3), d);
        assertEquals(10 / 9910.0, d.replayedShare(), 1e-12);
        assertEquals(new DeliveryPaths(19800, 20, 4, 8, 2, 4, 14, 6), DeliveryPaths.sum(List.of(d, d)));
        assertTrue(Double.isNaN(new DeliveryPaths(0, 0, 0, 0, 0, 0, 0, 0).replayedShare()));
    }
}
