package io.notify.client.internal;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.IntPredicate;

/**
 * Silence detection for the client's connection (docs/protocol.md §4): no {@code welcome} within the
 * connect timeout, then no frame of any kind for {@code pingInterval + max(3 s, pingInterval / 2)}.
 * One chain of timer checks per arming, each re-armed at the last frame's time plus the limit; a
 * new arming (the next connection, or the welcome's ping-based limit) stops the older chain.
 * Confined to the client's event thread.
 */
final class SilenceWatch {

    private final LoopThreads threads;
    private final IntPredicate live;
    private final Consumer<Duration> silent;
    private long lastFrameNanos;
    private long limitNanos;
    private int arm;

    /**
     * @param live   whether connection {@code gen} is still the current one
     * @param silent called (on the loop) when the current connection was silent for that long
     */
    SilenceWatch(LoopThreads threads, IntPredicate live, Consumer<Duration> silent) {
        this.threads = threads;
        this.live = live;
        this.silent = silent;
    }

    /** Watches connection {@code gen} from now on with {@code limit}. */
    void watch(int gen, Duration limit) {
        lastFrameNanos = System.nanoTime();
        limitNanos = limit.toNanos();
        int current = ++arm;
        threads.schedule(() -> check(gen, current), limit);
    }

    /** A frame arrived. */
    void frame() {
        lastFrameNanos = System.nanoTime();
    }

    private void check(int gen, int armed) {
        if (armed != arm || !live.test(gen)) {
            return;
        }
        long quiet = System.nanoTime() - lastFrameNanos;
        if (quiet >= limitNanos) {
            silent.accept(Duration.ofNanos(quiet));
        } else {
            threads.schedule(() -> check(gen, armed), Duration.ofNanos(limitNanos - quiet));
        }
    }
}
