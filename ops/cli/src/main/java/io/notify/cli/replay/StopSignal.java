package io.notify.cli.replay;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;

/**
 * Ctrl-C for a read loop: the JVM's shutdown hook asks the loop to stop (flag + consumer wakeup)
 * and waits up to {@link #GRACE_SECONDS} for it to flush its output and close, so the last lines
 * are not lost. A thread interrupt (how tests and embedding code ask) is treated the same way by
 * the loops. {@link #close} removes the hook, so in-process runs leave nothing behind.
 */
final class StopSignal implements AutoCloseable {

    static final int GRACE_SECONDS = 5;

    private final Consumer<?, ?> consumer;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;
    private volatile boolean requested;

    private StopSignal(Consumer<?, ?> consumer) {
        this.consumer = consumer;
        this.hook = new Thread(() -> {
            request();
            try {
                finished.await(GRACE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "notifyctl-stop");
    }

    static StopSignal onCtrlC(Consumer<?, ?> consumer) {
        StopSignal s = new StopSignal(consumer);
        Runtime.getRuntime().addShutdownHook(s.hook);
        return s;
    }

    void request() {
        requested = true;
        consumer.wakeup();
    }

    boolean requested() {
        return requested;
    }

    @Override
    public void close() {
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook is running and is released by the countDown above
        }
    }
}
