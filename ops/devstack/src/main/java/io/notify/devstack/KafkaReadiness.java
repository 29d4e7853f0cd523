package io.notify.devstack;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Decides that a broker is ready: it answers {@code describeCluster} with at least one node.
 *
 * <p>Guarantees: returns only after a successful describeCluster, fails with the caller's
 * diagnostics as soon as {@code stillRunning} turns false, and never waits past the deadline.
 */
final class KafkaReadiness {

    private KafkaReadiness() {
    }

    static void await(String bootstrapServers, Duration timeout, BooleanSupplier stillRunning,
            Supplier<String> diagnostics) throws TimeoutException {
        Deadline deadline = Deadline.in(timeout);
        Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000",
                AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "50",
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200",
                AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "50",
                AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, "200",
                AdminClientConfig.CLIENT_ID_CONFIG, "notify-devstack-readiness"));
        try {
            Exception last = null;
            while (true) {
                if (!stillRunning.getAsBoolean()) {
                    throw new IllegalStateException("Kafka at " + bootstrapServers
                            + " stopped before it became ready. " + diagnostics.get());
                }
                if (deadline.expired()) {
                    TimeoutException timedOut = new TimeoutException("Kafka at " + bootstrapServers
                            + " not ready within " + timeout + ". " + diagnostics.get());
                    if (last != null) {
                        timedOut.initCause(last);
                    }
                    throw timedOut;
                }
                try {
                    long wait = Math.max(1, Math.min(3000, deadline.remainingMillis()));
                    if (!admin.describeCluster().nodes().get(wait, TimeUnit.MILLISECONDS).isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    last = e;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for Kafka at " + bootstrapServers, e);
                }
            }
        } finally {
            admin.close(Duration.ofSeconds(2));
        }
    }
}
