package io.notify.client.internal;

import io.notify.client.reconnect.Disconnect;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * A transport's reports handed to the client's event loop: each runs there, in order; a frame's
 * stage completes once the loop handled it (or could not: the client is closed), so the transport
 * reads the next one only then.
 */
final class LoopEvents implements TransportEvents {

    private final LoopThreads threads;
    private final Consumer<String> frame;
    private final Runnable opened;
    private final Consumer<Disconnect> ended;

    LoopEvents(LoopThreads threads, Consumer<String> frame, Runnable opened, Consumer<Disconnect> ended) {
        this.threads = threads;
        this.frame = frame;
        this.opened = opened;
        this.ended = ended;
    }

    @Override
    public CompletionStage<Void> frame(String text) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!threads.run(() -> {
            try {
                frame.accept(text);
            } finally {
                done.complete(null);
            }
        })) {
            done.complete(null);
        }
        return done;
    }

    @Override
    public void opened() {
        threads.run(opened);
    }

    @Override
    public void ended(Disconnect why) {
        threads.run(() -> ended.accept(why));
    }
}
