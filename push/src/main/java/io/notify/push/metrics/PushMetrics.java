package io.notify.push.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The push sender's meters (docs/push.md, "Metrics"): {@code notify_push_attempts_total{provider,outcome}}
 * (one per attempt: sent, retry, gone, refused, given_up, rate_limited, no_registration),
 * {@code notify_push_send_seconds{provider}} (a provider's answer time), {@code notify_push_in_flight{provider}},
 * {@code notify_push_fallbacks_total{outcome}} (records of notify.fallback: handled, skipped_channel,
 * unreadable) and {@code notify_push_lateness_seconds} (from the fallback's due time to its first attempt).
 */
public final class PushMetrics {

    private final MeterRegistry registry;
    private final Timer lateness;

    public PushMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.lateness = Timer.builder("notify.push.lateness").description("From a fallback's due time to its first push attempt")
                .publishPercentileHistogram().maximumExpectedValue(Duration.ofHours(1)).register(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** One attempt's outcome ({@code provider} "none" for no_registration). */
    public void attempt(String provider, String outcome) {
        Counter.builder("notify.push.attempts").description("Push attempts, by provider and outcome")
                .tags("provider", provider, "outcome", outcome).register(registry).increment();
    }

    /** How long a provider took to answer. */
    public void sendTime(String provider, long nanos) {
        Timer.builder("notify.push.send").description("Time for a provider to answer one push").tags("provider", provider)
                .publishPercentileHistogram().maximumExpectedValue(Duration.ofSeconds(30)).register(registry)
                .record(Duration.ofNanos(nanos));
    }

    /** A record of notify.fallback: {@code handled}, {@code skipped_channel} (not push), {@code unreadable}. */
    public void fallback(String outcome) {
        Counter.builder("notify.push.fallbacks").description("Records of notify.fallback, by outcome")
                .tags("outcome", outcome).register(registry).increment();
    }

    public void lateness(long millis) {
        lateness.record(Duration.ofMillis(Math.max(0, millis)));
    }

    /** A gauge of the pushes waiting for or holding one of a provider's in-flight slots. */
    public void inFlight(String provider, Supplier<Number> value) {
        io.micrometer.core.instrument.Gauge.builder("notify.push.in.flight", value).description("Pushes in flight, by provider")
                .tags("provider", provider).register(registry);
    }
}
