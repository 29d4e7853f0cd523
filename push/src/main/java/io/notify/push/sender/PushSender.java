package io.notify.push.sender;

import io.notify.push.metrics.PushMetrics;
import io.notify.push.provider.PushProvider;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;

/**
 * The sender's parts wired once ({@link #create}): the providers behind their in-flight bounds, the
 * per-device limits, the retry timer, the outcome writer, and the consumer loop that drives them.
 * {@link #close} stops the retry timer (call it after the consumer's thread ended).
 */
public final class PushSender implements AutoCloseable {

    private final FallbackConsumer consumer;
    private final ScheduledThreadPoolExecutor timer;

    private PushSender(FallbackConsumer consumer, ScheduledThreadPoolExecutor timer) {
        this.consumer = consumer;
        this.timer = timer;
    }

    /** How the sender paces itself: the bounds of docs/push.md ("Bounds", "Retries", "Guarantees"). */
    public record Pacing(int maxInFlight, int deviceRatePerMinute, int deviceBurst, int maxAttempts, Duration initialBackoff,
                         Duration maxBackoff, Duration retryDeadline, Duration ttl, Duration rebalanceWait, int maxPending) {
    }

    public static PushSender create(Pacing config, TopicCatalog topics, List<PushProvider> providers, Consumer<byte[], byte[]> kafka,
                                    Producer<byte[], byte[]> producer, Clock clock, PushMetrics metrics) {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "push-retries");
            t.setDaemon(true);
            return t;
        });
        Map<String, InFlightLimit> limits = new HashMap<>();
        providers.forEach(p -> limits.put(p.name(), new InFlightLimit(p, config.maxInFlight(), metrics)));
        Delivery delivery = new Delivery(limits, new DeviceLimits(config.deviceRatePerMinute(), config.deviceBurst(), System::nanoTime),
                new Delivery.RetryPolicy(config.maxAttempts(), config.initialBackoff(), config.maxBackoff(), config.retryDeadline()),
                new Outcomes(producer, topics), timer, clock, metrics);
        return new PushSender(new FallbackConsumer(kafka, topics.fallback().name(), delivery, config.ttl(),
                config.rebalanceWait(), config.maxPending(), clock, metrics), timer);
    }

    public FallbackConsumer consumer() {
        return consumer;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
