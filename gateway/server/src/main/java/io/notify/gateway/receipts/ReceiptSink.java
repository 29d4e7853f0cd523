package io.notify.gateway.receipts;

import io.notify.protocol.inbox.Receipt;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Where a node's receipts go: {@code notify.receipts} ({@link KafkaReceiptSink}), or a test's
 * collector. Guarantees of every implementation: {@link #send} never blocks and never throws; its
 * stage completes normally once the receipt is durable (the broker acknowledged it, acks=all) and
 * exceptionally when it will not be, within the implementation's own timeout; receipts of one stream
 * are written in the order they were handed over.
 */
public interface ReceiptSink extends AutoCloseable {

    /** Makes its clients (the node calls it in {@code start}, before the listener opens); a send before it fails. */
    default void start() {
    }

    CompletionStage<Void> send(Receipt receipt);

    /** Several receipts at once (a flush of coalesced acks): one stage each, in order. */
    default List<CompletionStage<Void>> sendAll(List<Receipt> receipts) {
        List<CompletionStage<Void>> out = new ArrayList<>(receipts.size());
        for (Receipt r : receipts) {
            out.add(send(r));
        }
        return out;
    }

    /** Writes what was handed over (bounded wait), then refuses more; idempotent. */
    @Override
    default void close() {
    }
}
