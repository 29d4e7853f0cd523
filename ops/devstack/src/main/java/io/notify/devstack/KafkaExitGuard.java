package io.notify.devstack;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.utils.internals.Exit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a fatal error of an in-process broker from ending the JVM that hosts it.
 *
 * <p>Kafka calls {@code Exit.exit}/{@code Exit.halt} (in 4.4: {@code
 * org.apache.kafka.common.utils.internals.Exit}) on fatal errors, which would silently end a test
 * run. Guarantees: once {@link #install()} ran, such a call is logged, remembered in
 * {@link #lastFatal()} and turned into a {@link FatalBrokerExit} thrown in the calling thread; the
 * JVM keeps running. The procedures are JVM-global and are deliberately never reset, because
 * another in-process broker may still be running.
 */
final class KafkaExitGuard {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaExitGuard.class);
    private static final AtomicBoolean INSTALLED = new AtomicBoolean();
    private static final AtomicReference<FatalBrokerExit> LAST = new AtomicReference<>();

    private KafkaExitGuard() {
    }

    static void install() {
        if (INSTALLED.compareAndSet(false, true)) {
            Exit.setExitProcedure((status, message) -> refuse("exit", status, message));
            Exit.setHaltProcedure((status, message) -> refuse("halt", status, message));
        }
    }

    static FatalBrokerExit lastFatal() {
        return LAST.get();
    }

    private static void refuse(String kind, int status, String message) {
        FatalBrokerExit error = new FatalBrokerExit(kind, status, message);
        LAST.set(error);
        LOG.error("in-process Kafka asked the JVM to {} (status {}): {}; the JVM keeps running", kind, status, message);
        throw error;
    }

    /** What an in-process broker threw instead of ending the JVM. */
    static final class FatalBrokerExit extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FatalBrokerExit(String kind, int status, String message) {
            super("Kafka requested JVM " + kind + " with status " + status + (message == null ? "" : ": " + message));
        }
    }
}
