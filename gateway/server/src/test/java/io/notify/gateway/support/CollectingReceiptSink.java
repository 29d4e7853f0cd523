package io.notify.gateway.support;

import io.notify.gateway.receipts.ReceiptSink;
import io.notify.protocol.inbox.Receipt;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link ReceiptSink} in memory: keeps every receipt handed to it, in order, and acknowledges it at
 * once, or fails it while {@link #failing} is set.
 */
public final class CollectingReceiptSink implements ReceiptSink {

    private final List<Receipt> received = new CopyOnWriteArrayList<>();
    private volatile boolean failing;

    @Override
    public CompletionStage<Void> send(Receipt receipt) {
        if (failing) {
            return CompletableFuture.failedFuture(new IllegalStateException("broker down (test)"));
        }
        received.add(receipt);
        return CompletableFuture.completedFuture(null);
    }

    /** From now on every send fails ({@code true}) or succeeds again. */
    public void failing(boolean failing) {
        this.failing = failing;
    }

    /** Every receipt acknowledged so far, in order. */
    public List<Receipt> received() {
        return List.copyOf(received);
    }

    public void clear() {
        received.clear();
    }
}
