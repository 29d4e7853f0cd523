package io.notify.registry;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;

/**
 * Whether Redis answers, as one registry component sees it. Logs each change of state exactly once
 * (WARN when lost, INFO when back) however many calls report it, and exports the state as the gauge
 * {@value #GAUGE} (1/0). Unknown, and exported as 0, until the first report. Shared by both sides
 * of the registry ({@code lease} and {@code route}); not meant for use outside it.
 */
public final class RedisHealth {

    public static final String GAUGE = "notify.registry.redis.available";

    private enum State { UNKNOWN, UP, DOWN }

    private final AtomicReference<State> state = new AtomicReference<>(State.UNKNOWN);
    private final String who;
    private final Logger log;

    public RedisHealth(String who, Logger log, MeterRegistry meters, Tags tags) {
        this.who = who;
        this.log = log;
        Gauge.builder(GAUGE, state, s -> s.get() == State.UP ? 1 : 0)
                .tags(tags)
                .description("1 while the registry's Redis answers, 0 otherwise")
                .register(meters);
    }

    public void up() {
        State before = state.getAndSet(State.UP);
        if (before == State.DOWN) {
            log.info("{}: Redis is available again", who);
        } else if (before == State.UNKNOWN) {
            log.info("{}: Redis is available", who);
        }
    }

    public void down(String reason) {
        State before = state.getAndSet(State.DOWN);
        if (before != State.DOWN) {
            log.warn("{}: Redis is unavailable ({}); carrying on without it until it answers again", who, reason);
        }
    }

    public boolean isUp() {
        return state.get() == State.UP;
    }
}
