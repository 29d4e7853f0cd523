package io.notify.platform;

import java.nio.file.Path;
import java.util.Map;

/**
 * The shape of a {@link PlatformStack}: how many fanout-streams instances and gateway nodes, whether
 * an ingest service runs, and settings added to every service of a kind (they override the
 * stack's own). Heaps are the child JVMs' {@code -Xmx}.
 */
public record StackOptions(Path work, int fanouts, int gateways, boolean ingest, String guarantee,
                           String fanoutHeap, String gatewayHeap, Map<String, String> fanoutSettings,
                           Map<String, String> gatewaySettings, Map<String, String> ingestSettings) {

    public StackOptions {
        if (fanouts < 1 || gateways < 0) {
            throw new IllegalArgumentException("a stack needs at least one fanout-streams instance");
        }
        fanoutSettings = Map.copyOf(fanoutSettings);
        gatewaySettings = Map.copyOf(gatewaySettings);
        ingestSettings = Map.copyOf(ingestSettings);
    }

    public static StackOptions of(Path work, int fanouts, int gateways) {
        return new StackOptions(work, fanouts, gateways, false, "exactly_once_v2", "512m", "256m", Map.of(), Map.of(), Map.of());
    }

    public StackOptions withIngest(boolean on) {
        return new StackOptions(work, fanouts, gateways, on, guarantee, fanoutHeap, gatewayHeap, fanoutSettings, gatewaySettings, ingestSettings);
    }

    public StackOptions withGuarantee(String value) {
        return new StackOptions(work, fanouts, gateways, ingest, value, fanoutHeap, gatewayHeap, fanoutSettings, gatewaySettings, ingestSettings);
    }

    public StackOptions withGatewayHeap(String value) {
        return new StackOptions(work, fanouts, gateways, ingest, guarantee, fanoutHeap, value, fanoutSettings, gatewaySettings, ingestSettings);
    }

    public StackOptions withGatewaySettings(Map<String, String> values) {
        return new StackOptions(work, fanouts, gateways, ingest, guarantee, fanoutHeap, gatewayHeap, fanoutSettings, values, ingestSettings);
    }

    public StackOptions withFanoutSettings(Map<String, String> values) {
        return new StackOptions(work, fanouts, gateways, ingest, guarantee, fanoutHeap, gatewayHeap, values, gatewaySettings,
                ingestSettings);
    }

    public StackOptions withIngestSettings(Map<String, String> values) {
        return new StackOptions(work, fanouts, gateways, ingest, guarantee, fanoutHeap, gatewayHeap, fanoutSettings,
                gatewaySettings, values);
    }
}
