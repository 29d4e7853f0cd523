package io.notify.client.internal;

import io.notify.client.TokenSupplier;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The client's tokens: the {@link TokenSupplier} runs on the token thread only (it may block, and is
 * never called concurrently with itself), for the connections and the inbox requests alike; the
 * last token it gave is remembered so an inbox request does not ask for one per call. A token the
 * gateway refused is replaced once ({@link #fresh}): asked for with {@code refresh = true}, unless a
 * newer one arrived meanwhile.
 */
final class Tokens {

    private final TokenSupplier supplier;
    private final LoopThreads threads;
    private volatile String last;

    Tokens(TokenSupplier supplier, LoopThreads threads) {
        this.supplier = supplier;
        this.threads = threads;
    }

    /**
     * Asks the supplier on the token thread and hands the token, or the failure, to one of the two
     * callbacks there; a supplier that returns null or blank has failed.
     */
    void fetch(boolean refresh, Consumer<String> ok, Consumer<Exception> failed) {
        boolean queued = threads.token(() -> {
            String token;
            try {
                token = supplier.token(refresh);
                if (token == null || token.isBlank()) {
                    throw new IllegalStateException("the token supplier returned no token");
                }
            } catch (Exception e) {
                failed.accept(e);
                return;
            }
            last = token;
            ok.accept(token);
        });
        if (!queued) {
            failed.accept(new IllegalStateException("the client is closed"));
        }
    }

    /** The last token, or a new one. */
    CompletableFuture<String> current() {
        String t = last;
        return t != null ? CompletableFuture.completedFuture(t) : fetch(false);
    }

    /**
     * A token to use instead of {@code rejected}: the last one if it is another, else a fresh one
     * from the supplier. It may be {@code rejected} again when the supplier cannot refresh.
     */
    CompletableFuture<String> fresh(String rejected) {
        String t = last;
        return t != null && !t.equals(rejected) ? CompletableFuture.completedFuture(t) : fetch(true);
    }

    private CompletableFuture<String> fetch(boolean refresh) {
        CompletableFuture<String> out = new CompletableFuture<>();
        fetch(refresh, out::complete, out::completeExceptionally);
        return out;
    }
}
