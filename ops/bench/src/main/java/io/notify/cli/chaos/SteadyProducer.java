package io.notify.cli.chaos;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Recipients;
import io.notify.schemas.publish.NotifyPublisher;
import io.notify.schemas.publish.PublishException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes durable events straight to Kafka at a steady rate, round-robin over the targets of the
 * {@link Audience} (each user, then each room: {@code to.rooms}), and tells the
 * {@link Verifier} about each acknowledgment. A retriable failure (the broker is
 * restarting) is sent again with the same event id — fanout-streams deduplicates by id — until
 * {@link #RETRY_FOR_NANOS}; events not yet acknowledged are bounded by {@link #MAX_IN_FLIGHT} (over
 * it, ticks are skipped and counted). A share of the events is withheld ({@link Withheld.Shares}):
 * every {@code expireEvery}-th gets the run's short {@code ttl}, every {@code recallEvery}-th is
 * recalled by the {@link Recaller} a moment after its acknowledgment; the verifier is told of each
 * before it is published. The warm-up's events ({@link #oneEach}) are all ordinary.
 */
final class SteadyProducer implements AutoCloseable {

    static final int MAX_IN_FLIGHT = 20_000;
    private static final long TICK_MS = 10;
    private static final long RETRY_DELAY_MS = 250;
    private static final long RETRY_FOR_NANOS = 180_000_000_000L;

    private final NotifyPublisher publisher;
    private final Recaller recaller;
    private final Withheld.Shares shares;
    private final Verifier verifier;
    private final Audience audience;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "chaos-producer");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private volatile double ratePerSecond;
    private double owed;
    private long n;

    /** Publishes with {@code publisher}; recalls through {@code bootstrap} on the publisher's topic. */
    SteadyProducer(NotifyPublisher publisher, String bootstrap, Verifier verifier, Withheld.Shares shares) {
        this.publisher = publisher;
        this.shares = shares;
        this.recaller = new Recaller(bootstrap, publisher.topic().name(), verifier, timer, shares.recallAfter(), RETRY_FOR_NANOS);
        this.verifier = verifier;
        this.audience = verifier.audience();
        timer.scheduleAtFixedRate(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
    }

    void rate(double perSecond) {
        ratePerSecond = perSecond;
    }

    /** One event to every user and every room, now (from the caller's thread). */
    void oneEach() {
        timer.execute(() -> {
            for (int t = 0; t < audience.targets(); t++) {
                publishTo(t, false);
            }
        });
    }

    private void tick() {
        owed += ratePerSecond * TICK_MS / 1000.0;
        if (ratePerSecond <= 0) {
            owed = 0;
        }
        while (owed >= 1) {
            owed -= 1;
            if (inFlight.get() >= MAX_IN_FLIGHT) {
                skipped.incrementAndGet();
                continue;
            }
            publishTo((int) (n % audience.targets()), true);
        }
    }

    /** The next event, to {@code target}; withheld by the {@link #shares} when {@code mayWithhold}. */
    private void publishTo(int target, boolean mayWithhold) {
        // round + target: every target gets its share, and each round-robin round about the same number
        Withheld.Fate fate = mayWithhold ? shares.fateOf(n / audience.targets() + target + 1) : null;
        n++;
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("n", n).put("sentAtMs", System.currentTimeMillis());
        EventEnvelope plain = audience.isRoom(target)
                ? EventEnvelope.durable("chaos.tick", data, Recipients.rooms(ChaosAgent.roomName(target - audience.users())))
                : EventEnvelope.durable("chaos.tick", data, ChaosAgent.userId(target));
        EventEnvelope e = fate == Withheld.Fate.EXPIRING ? plain.withExpiry(null, shares.ttlText()) : plain;
        if (fate != null) {
            verifier.withheld(e.id(), fate);
        }
        inFlight.incrementAndGet();
        published.incrementAndGet();
        send(e, target, fate, System.nanoTime());
    }

    private void send(EventEnvelope e, int target, Withheld.Fate fate, long firstNanos) {
        publisher.publish(e).whenComplete((ok, failure) -> {
            if (failure == null) {
                verifier.acked(e.id(), target);
                try {
                    if (fate == Withheld.Fate.RECALLED) {
                        recaller.recallLater(e); // pending there before this send stops being in flight: the settle wait sees one or the other
                    }
                } finally {
                    inFlight.decrementAndGet(); // also when the recall could not be written: the settle wait must not hang on it
                }
                return;
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            boolean retriable = !(cause instanceof PublishException pe) || pe.isRetriable();
            if (retriable && System.nanoTime() - firstNanos < RETRY_FOR_NANOS) {
                retries.incrementAndGet();
                timer.schedule(() -> send(e, target, fate, firstNanos), RETRY_DELAY_MS, TimeUnit.MILLISECONDS);
            } else {
                verifier.publishFailed();
                inFlight.decrementAndGet();
            }
        });
    }

    long inFlight() {
        return inFlight.get();
    }

    /** Recalls not acknowledged yet (scheduled, or sent). */
    long recallsPending() {
        return recaller.pending();
    }

    long published() {
        return published.get();
    }

    long skipped() {
        return skipped.get();
    }

    long retries() {
        return retries.get();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        recaller.close();
        publisher.close();
    }
}
