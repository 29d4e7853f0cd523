package io.notify.ingest.produce;

import io.notify.common.http.OpsEndpoints.Readiness;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Probes Kafka on its own thread every interval (describe the events topic, bounded by the
 * interval) and publishes the last answer. Readers ({@code /readyz}, the writer's fail-fast
 * check) never wait on the network. State changes are logged once, not on every probe.
 */
public final class KafkaReadiness implements Supplier<Readiness>, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaReadiness.class);

    private final Admin admin;
    private final String topic;
    private final Duration interval;
    private final ScheduledExecutorService scheduler;
    private volatile Readiness last = Readiness.down("Kafka not probed yet");

    public KafkaReadiness(Admin admin, String topic, Duration interval) {
        this.admin = admin;
        this.topic = topic;
        this.interval = interval;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kafka-readiness");
            t.setDaemon(true);
            return t;
        });
    }

    /** Probes once now (so a healthy service starts ready), then every interval. */
    public void start() {
        probe();
        scheduler.scheduleWithFixedDelay(this::probe, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public Readiness get() {
        return last;
    }

    void probe() {
        Readiness now;
        try {
            admin.describeTopics(List.of(topic), new DescribeTopicsOptions().timeoutMs((int) interval.toMillis()))
                    .allTopicNames().get(interval.toMillis() + 500, TimeUnit.MILLISECONDS);
            now = Readiness.up();
        } catch (ExecutionException e) {
            now = e.getCause() instanceof UnknownTopicOrPartitionException
                    ? Readiness.down("topic " + topic + " does not exist")
                    : Readiness.down("Kafka unreachable: " + e.getCause().getClass().getSimpleName());
        } catch (TimeoutException e) {
            now = Readiness.down("Kafka did not answer within " + interval.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (RuntimeException e) {
            now = Readiness.down("Kafka probe failed: " + e.getClass().getSimpleName());
        }
        if (now.ready() != last.ready() || !now.reason().equals(last.reason())) {
            if (now.ready()) {
                LOG.info("Kafka reachable, topic {} present: ready", topic);
            } else {
                LOG.warn("not ready: {}", now.reason());
            }
        }
        last = now;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
