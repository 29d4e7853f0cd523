package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.PrometheusText;
import java.util.List;

/**
 * What the clients' acks became over one step, from the services' counters between two scrapes
 * (every gateway, every fanout-streams instance summed): ack frames the gateways received
 * ({@code notify_gateway_acks_total}), ack receipts they wrote to {@code notify.receipts}
 * ({@code notify_gateway_receipts_total{kind="ack"}}: {@code produced}, or {@code dropped} when the
 * pending bound was full, or {@code failed}), acks folded into a receipt waiting for the next flush
 * ({@code notify_gateway_acks_coalesced_total}), and ack receipts fanout-streams read
 * ({@code notify_fanout_receipts_total{kind="ack"}}, every outcome) and applied next to the inbox
 * ({@code outcome="applied"}).
 */
public record ReceiptCounts(long acks, long produced, long dropped, long failed, long coalesced, long read, long applied) {

    static final ReceiptCounts NONE = new ReceiptCounts(0, 0, 0, 0, 0, 0, 0);

    /** The counts between the gateways' and the fanout instances' scrapes before and after. */
    static ReceiptCounts between(List<PrometheusText> gatewaysBefore, List<PrometheusText> gatewaysAfter,
                                 List<PrometheusText> fanoutsBefore, List<PrometheusText> fanoutsAfter) {
        return new ReceiptCounts(
                DeliveryPaths.delta(gatewaysBefore, gatewaysAfter, "notify_gateway_acks_total"),
                DeliveryPaths.delta(gatewaysBefore, gatewaysAfter, "notify_gateway_receipts_total", "kind", "ack", "outcome", "produced"),
                DeliveryPaths.delta(gatewaysBefore, gatewaysAfter, "notify_gateway_receipts_total", "kind", "ack", "outcome", "dropped"),
                DeliveryPaths.delta(gatewaysBefore, gatewaysAfter, "notify_gateway_receipts_total", "kind", "ack", "outcome", "failed"),
                DeliveryPaths.delta(gatewaysBefore, gatewaysAfter, "notify_gateway_acks_coalesced_total"),
                DeliveryPaths.delta(fanoutsBefore, fanoutsAfter, "notify_fanout_receipts_total", "kind", "ack"),
                DeliveryPaths.delta(fanoutsBefore, fanoutsAfter, "notify_fanout_receipts_total", "kind", "ack", "outcome", "applied"));
    }

    /** Whether fanout-streams has read at least as many ack receipts as the gateways wrote (it caught up). */
    boolean caughtUp() {
        return read >= produced;
    }

    /** The sum of several steps' counts. */
    static ReceiptCounts sum(List<ReceiptCounts> of) {
        return new ReceiptCounts(of.stream().mapToLong(ReceiptCounts::acks).sum(), of.stream().mapToLong(ReceiptCounts::produced).sum(),
                of.stream().mapToLong(ReceiptCounts::dropped).sum(), of.stream().mapToLong(ReceiptCounts::failed).sum(),
                of.stream().mapToLong(ReceiptCounts::coalesced).sum(), of.stream().mapToLong(ReceiptCounts::read).sum(),
                of.stream().mapToLong(ReceiptCounts::applied).sum());
    }
}
