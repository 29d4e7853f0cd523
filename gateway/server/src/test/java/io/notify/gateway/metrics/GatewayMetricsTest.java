package io.notify.gateway.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class GatewayMetricsTest {

    @Test
    void aClientsOwnCloseCodesAreCountedByClassNotOneSeriesEach() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        GatewayMetrics metrics = new GatewayMetrics(registry);
        int[] codes = {1000, 1006, 4003, 4029, 3000, 3123, 3999, 4000, 4567, 4999, 2999, 1005};
        for (int code : codes) {
            metrics.connectionOpened("ws");
            metrics.connectionClosed("ws", code);
        }
        Map<String, Double> byLabel = new TreeMap<>();
        for (Counter c : registry.find("notify.gateway.closes").counters()) {
            byLabel.merge(c.getId().getTag("code"), c.count(), Double::sum);
        }
        assertEquals(Map.of("1000", 1.0, "1005", 1.0, "1006", 1.0, "4003", 1.0, "4029", 1.0,
                "3xxx", 3.0, "4xxx", 3.0, "other", 1.0), byLabel);
    }
}
