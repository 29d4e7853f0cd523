package io.notify.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    @Test
    void sumsSamplesOfOneNameFilteredByLabels() {
        PrometheusText m = new PrometheusText("""
                # HELP notify_fanout_deliveries_total DeliveryMessages written
                # TYPE notify_fanout_deliveries_total counter
                notify_fanout_deliveries_total 19998.0
                notify_fanout_deliveries_totally_different 5.0
                notify_fanout_undelivered_total{reason="no_live_connection",} 2.0
                notify_fanout_undelivered_total{reason="registry_unavailable",} 1.0E3
                notify_registry_lookups_total{outcome="cache_hit",role="router",} 18000.0
                notify_registry_lookups_total{outcome="cache_miss",role="router",} 2000.0
                notify_registry_lookup_redis_latency_seconds_count{role="router",} 2010.0
                odd_label{v="a \\"quoted\\" }, value"} 7.0
                notify_gateway_connections{transport="sse"} 3.0
                notify_gateway_connections{transport="ws"} 14997.0
                notify_gateway_connections_other 5.0
                notify_gateway_query_latency_seconds_count 500.0
                """);
        assertEquals(19998.0, m.sum("notify_fanout_deliveries_total"));
        assertEquals(1002.0, m.sum("notify_fanout_undelivered_total"));
        assertEquals(2.0, m.sum("notify_fanout_undelivered_total", "reason", "no_live_connection"));
        assertEquals(18000.0, m.sum("notify_registry_lookups_total", "outcome", "cache_hit", "role", "router"));
        assertEquals(2010.0, m.sum("notify_registry_lookup_redis_latency_seconds_count"));
        assertEquals(7.0, m.sum("odd_label", "v", "a \"quoted\" }, value"));
        assertEquals(0.0, m.sum("notify_fanout_dlq_total"));
        assertEquals(15000.0, m.sum("notify_gateway_connections"), "a longer name sharing the prefix is not summed");
        assertEquals(3.0, m.sum("notify_gateway_connections", "transport", "sse"));
        assertEquals(500.0, m.sum("notify_gateway_query_latency_seconds_count"));
    }

    @Test
    void readsHistogramBucketsByBoundSummedOverSeries() {
        PrometheusText m = new PrometheusText("""
                h_seconds_bucket{hop="a",le="0.001",} 1.0
                h_seconds_bucket{hop="a",le="+Inf",} 4.0
                h_seconds_bucket{hop="b",le="0.001",} 2.0
                h_seconds_bucket{hop="b",le="+Inf",} 2.0
                h_seconds_count{hop="a",} 4.0
                """);
        assertEquals(new TreeMap<>(Map.of(0.001, 1.0, Double.POSITIVE_INFINITY, 4.0)), m.buckets("h_seconds", "hop", "a"));
        assertEquals(new TreeMap<>(Map.of(0.001, 3.0, Double.POSITIVE_INFINITY, 6.0)), m.buckets("h_seconds"));
    }
}
