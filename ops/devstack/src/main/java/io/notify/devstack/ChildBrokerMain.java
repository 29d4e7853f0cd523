package io.notify.devstack;

import java.io.IOException;
import java.io.InputStream;

/**
 * Entry point of the broker child process started by {@link KafkaBrokerProcess}: runs
 * {@code kafka.Kafka server.properties} and ends when its parent does.
 *
 * <p>Guarantees: when the parent JVM dies without stopping the child (crash, kill -9), the child's
 * standard input reaches end-of-file and the broker exits through its normal shutdown hook, so no
 * orphaned brokers keep ports and memory. Not meant to be started by hand: with stdin closed or
 * redirected from /dev/null it stops at once.
 */
public final class ChildBrokerMain {

    private ChildBrokerMain() {
    }

    public static void main(String[] args) throws Exception {
        Thread parentWatch = new Thread(() -> {
            InputStream in = System.in;
            try {
                while (in.read() != -1) {
                    // the parent never writes; end-of-file means it is gone
                }
            } catch (IOException e) {
                // a broken pipe also means the parent is gone
            }
            System.exit(0);
        }, "notify-devstack-parent-watch");
        parentWatch.setDaemon(true);
        parentWatch.start();
        kafka.Kafka.main(args);
    }
}
