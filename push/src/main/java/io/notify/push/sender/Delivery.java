package io.notify.push.sender;

import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.stream.StreamId;
import io.notify.push.metrics.PushMetrics;
import io.notify.push.provider.PushMessage;
import io.notify.push.provider.PushResult;
import io.notify.schemas.topic.DlqFailure;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Takes one event to one registered device to a final outcome (docs/push.md, "Retries"): sent,
 * gone (the registration is removed), refused, given up or rate limited, writing an outcome for
 * every attempt. A transient failure ({@link PushResult.Retry}) is tried again after the larger of
 * the provider's {@code Retry-After} and an exponential backoff ({@code initial-backoff} doubling up
 * to {@code max-backoff}), at most {@code max-attempts} times and never past {@code retry-deadline}
 * after the first attempt: then it is given up. Refused, given up and rate limited go to the DLQ.
 * The stage completes once the last outcome (and DLQ record or removal) is acknowledged by Kafka.
 */
final class Delivery {

    /** Where a fallback record was read, for the DLQ headers. */
    record Source(String topic, int partition, long offset) {
    }

    /** The retry bounds. */
    record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff, Duration deadline) {
        Duration backoff(int attempt) {
            long ms = initialBackoff.toMillis() << Math.min(20, attempt - 1);
            return Duration.ofMillis(Math.min(ms, maxBackoff.toMillis()));
        }
    }

    private final Map<String, InFlightLimit> providers;
    private final DeviceLimits devices;
    private final RetryPolicy retries;
    private final Outcomes outcomes;
    private final ScheduledExecutorService timer;
    private final Clock clock;
    private final PushMetrics metrics;

    Delivery(Map<String, InFlightLimit> providers, DeviceLimits devices, RetryPolicy retries, Outcomes outcomes,
             ScheduledExecutorService timer, Clock clock, PushMetrics metrics) {
        this.providers = providers;
        this.devices = devices;
        this.retries = retries;
        this.outcomes = outcomes;
        this.timer = timer;
        this.clock = clock;
        this.metrics = metrics;
    }

    Outcomes outcomes() {
        return outcomes;
    }

    /** A record whose user has no registration: one outcome, nothing to send. */
    CompletableFuture<Void> noRegistration(FallbackRecord r) {
        metrics.attempt("none", PushOutcome.Outcome.NO_REGISTRATION.wireName());
        return outcomes.outcome(new PushOutcome(StreamId.parse(r.stream()), r.event().id(), r.event().seq(), null, null,
                PushOutcome.Outcome.NO_REGISTRATION, 0, 0, null, null, clock.millis()));
    }

    /** A fallback read after its push would have expired: given up without an attempt (the DLQ has it). */
    CompletableFuture<Void> expired(FallbackRecord r, PushRegistration to, byte[] key, Source source, Duration ttl) {
        return new One(r, to, null, key, source, clock.millis())
                .last(PushOutcome.Outcome.GIVEN_UP, 0, 0, "older than its ttl (" + ttl + ") when read", null, "given_up");
    }

    CompletableFuture<Void> deliver(FallbackRecord r, PushRegistration to, PushMessage message, byte[] key, Source source) {
        One one = new One(r, to, message, key, source, clock.millis());
        InFlightLimit provider = providers.get(to.provider());
        if (provider == null) {
            return one.last(PushOutcome.Outcome.REFUSED, 1, 0, "this sender has no " + to.provider() + " credentials", null, "no_provider");
        }
        if (!devices.tryTake(to.id())) {
            return one.last(PushOutcome.Outcome.RATE_LIMITED, 1, 0, "the device's push rate limit", null, "rate_limited");
        }
        one.attempt(provider, 1);
        return one.done;
    }

    /** The attempts of one (event, registration). */
    private final class One {
        final FallbackRecord r;
        final PushRegistration to;
        final PushMessage message;
        final byte[] key;
        final Source source;
        final long started;
        final List<CompletableFuture<Void>> writes = new ArrayList<>();
        final CompletableFuture<Void> done = new CompletableFuture<>();

        One(FallbackRecord r, PushRegistration to, PushMessage message, byte[] key, Source source, long started) {
            this.r = r;
            this.to = to;
            this.message = message;
            this.key = key;
            this.source = source;
            this.started = started;
        }

        void attempt(InFlightLimit provider, int n) {
            provider.send(to, message).whenComplete((result, error) -> {
                try {
                    decide(provider, n, result);
                } catch (RuntimeException e) {
                    done.completeExceptionally(e);
                }
            });
        }

        private void decide(InFlightLimit provider, int n, PushResult result) {
            if (result instanceof PushResult.Sent s) {
                last(PushOutcome.Outcome.SENT, n, s.status(), s.reason(), s.providerId(), null);
            } else if (result instanceof PushResult.Gone g) {
                synchronized (writes) {
                    writes.add(outcomes.gone(PushChange.gone(StreamId.parse(r.stream()), to.id(), g.reason(), clock.millis())));
                }
                last(PushOutcome.Outcome.GONE, n, g.status(), g.reason(), null, null);
            } else if (result instanceof PushResult.Refused f) {
                last(PushOutcome.Outcome.REFUSED, n, f.status(), f.reason(), null, "refused");
            } else if (result instanceof PushResult.Retry t) {
                Duration wait = retries.backoff(n);
                if (t.retryAfter() != null && t.retryAfter().compareTo(wait) > 0) {
                    wait = t.retryAfter();
                }
                long at = clock.millis() + wait.toMillis();
                if (n >= retries.maxAttempts() || at - started > retries.deadline().toMillis()) {
                    last(PushOutcome.Outcome.GIVEN_UP, n, t.status(), t.reason(), null, "given_up");
                    return;
                }
                record(PushOutcome.Outcome.RETRY, n, t.status(), t.reason(), null);
                timer.schedule(() -> attempt(provider, n + 1), wait.toMillis(), TimeUnit.MILLISECONDS);
            }
        }

        private void record(PushOutcome.Outcome outcome, int n, int status, String reason, String providerId) {
            metrics.attempt(to.provider(), outcome.wireName());
            CompletableFuture<Void> w = outcomes.outcome(new PushOutcome(StreamId.parse(r.stream()), r.event().id(), r.event().seq(),
                    to.id(), to.provider(), outcome, n, status, reason == null || reason.isEmpty() ? null : reason, providerId,
                    clock.millis()));
            synchronized (writes) {
                writes.add(w);
            }
        }

        /** The final outcome; {@code dlqKind} non-null sends the narrowed record to the DLQ too. */
        CompletableFuture<Void> last(PushOutcome.Outcome outcome, int n, int status, String reason, String providerId, String dlqKind) {
            record(outcome, n, status, reason, providerId);
            if (dlqKind != null) {
                String why = outcome.wireName() + " by " + to.provider() + (status > 0 ? " (HTTP " + status + ")" : "")
                        + (reason == null || reason.isEmpty() ? "" : ": " + reason);
                DlqFailure failure = new DlqFailure(why, dlqKind, source.topic(), source.partition(), source.offset(),
                        clock.instant());
                synchronized (writes) {
                    writes.add(outcomes.dlq(key, Outcomes.narrowed(r, to), failure, to.id()));
                }
            }
            CompletableFuture<?>[] all;
            synchronized (writes) {
                all = writes.toArray(CompletableFuture[]::new);
            }
            CompletableFuture.allOf(all).whenComplete((v, error) -> {
                if (error == null) {
                    done.complete(null);
                } else {
                    done.completeExceptionally(error);
                }
            });
            return done;
        }
    }
}
