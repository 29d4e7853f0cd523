package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.PrometheusText;
import io.notify.platform.ServiceProcess;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * How the events of one step reached the clients, from the gateways' counters between two
 * scrapes (every gateway summed): frames sent on the live path (node topic) and from the query API
 * (replay: resume, gap fill, recheck), events only a recheck found, gaps filled, and connections
 * the gateways closed; also resets sent, durable events not sent because the connection had them,
 * and node-topic records that found no connection. The share of replayed frames is how much the
 * safety net carried. Also used by {@code notifyctl chaos} for the nodes that take over a killed
 * gateway's clients.
 */
public record DeliveryPaths(long live, long replayed, long recheckFound, long gapFills, long closes, long resets,
                     long duplicatesDropped, long noConnection) {

    /** Every gateway's {@code /metrics} now. */
    public static List<PrometheusText> scrape(List<ServiceProcess> gateways) throws IOException, InterruptedException {
        List<PrometheusText> out = new ArrayList<>();
        for (ServiceProcess g : gateways) {
            out.add(PrometheusText.scrape(g));
        }
        return out;
    }

    public static DeliveryPaths between(List<PrometheusText> before, List<PrometheusText> after) {
        return new DeliveryPaths(
                delta(before, after, "notify_gateway_events_delivered_total", "path", "live"),
                delta(before, after, "notify_gateway_events_delivered_total", "path", "replay"),
                delta(before, after, "notify_gateway_recheck_found_total"),
                delta(before, after, "notify_gateway_gap_fills_total"),
                delta(before, after, "notify_gateway_closes_total"),
                delta(before, after, "notify_gateway_resets_total"),
                delta(before, after, "notify_gateway_duplicates_dropped_total"),
                delta(before, after, "notify_gateway_delivery_messages_total", "outcome", "no_connection"));
    }

    /** The sum of several steps' paths. */
    static DeliveryPaths sum(List<DeliveryPaths> of) {
        return new DeliveryPaths(of.stream().mapToLong(DeliveryPaths::live).sum(), of.stream().mapToLong(DeliveryPaths::replayed).sum(),
                of.stream().mapToLong(DeliveryPaths::recheckFound).sum(), of.stream().mapToLong(DeliveryPaths::gapFills).sum(),
                of.stream().mapToLong(DeliveryPaths::closes).sum(), of.stream().mapToLong(DeliveryPaths::resets).sum(),
                of.stream().mapToLong(DeliveryPaths::duplicatesDropped).sum(), of.stream().mapToLong(DeliveryPaths::noConnection).sum());
    }

    /** The growth of counter {@code name} (with {@code labels}) summed over the scrapes, from {@code before} to {@code after}. */
    static long delta(List<PrometheusText> before, List<PrometheusText> after, String name, String... labels) {
        return Math.round(PrometheusText.sum(after, name, labels) - PrometheusText.sum(before, name, labels));
    }

    /**
     * Events only the safety net delivered (found by a recheck, or a gap filled) ÷ all event frames
     * sent; NaN when none were. Resume replays are not in it: a reconnecting client asks for them.
     */
    public double safetyNetShare() {
        long all = live + replayed;
        return all == 0 ? Double.NaN : (recheckFound + gapFills) / (double) all;
    }

    /** Replayed ÷ all event frames sent; NaN when none were. */
    double replayedShare() {
        long all = live + replayed;
        return all == 0 ? Double.NaN : replayed / (double) all;
    }
}
