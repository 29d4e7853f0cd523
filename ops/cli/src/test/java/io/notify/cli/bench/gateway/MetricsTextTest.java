package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MetricsTextTest {

    @Test
    void sumsOneNameFilteredByLabels() {
        MetricsText m = new MetricsText("""
                # HELP notify_gateway_connections Open connections
                # TYPE notify_gateway_connections gauge
                notify_gateway_connections{transport="sse"} 3.0
                notify_gateway_connections{transport="ws"} 14997.0
                notify_gateway_connections_other 5.0
                notify_gateway_handshake_rejections_total{reason="rate_limited",transport="ws"} 12.0
                notify_gateway_handshake_rejections_total{reason="origin",transport="ws"} 1.0
                notify_gateway_query_latency_seconds_count 500.0
                """);
        assertEquals(15000.0, m.sum("notify_gateway_connections"));
        assertEquals(3.0, m.sum("notify_gateway_connections", "transport", "sse"));
        assertEquals(12.0, m.sum("notify_gateway_handshake_rejections_total", "reason", "rate_limited"));
        assertEquals(500.0, m.sum("notify_gateway_query_latency_seconds_count"));
        assertEquals(0.0, m.sum("notify_gateway_missing"));
    }
}
