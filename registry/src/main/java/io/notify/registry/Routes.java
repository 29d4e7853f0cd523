package io.notify.registry;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The answer of a registry lookup for one stream: its live connections (valid lease, node alive
 * with the same incarnation), the stale members seen (to be removed), and whether the registry
 * could answer at all. {@code available == false} means "unknown", not "no connections": the router
 * then records the event as undelivered with reason {@code registry_unavailable}; the inbox keeps it.
 */
public record Routes(boolean available, List<ConnectionRef> live, List<ConnectionRef> stale) {

    public Routes {
        live = List.copyOf(live);
        stale = List.copyOf(stale);
    }

    public static Routes unavailable() {
        return new Routes(false, List.of(), List.of());
    }

    public static Routes of(List<ConnectionRef> live, List<ConnectionRef> stale) {
        return new Routes(true, live, stale);
    }

    /** Live connection ids grouped by node id, nodes in sorted order (stable output for tests). */
    public Map<String, List<String>> connectionsByNode() {
        Map<String, List<String>> out = new TreeMap<>();
        for (ConnectionRef c : live) {
            out.computeIfAbsent(c.nodeId(), n -> new java.util.ArrayList<>()).add(c.connectionId());
        }
        return out;
    }
}
