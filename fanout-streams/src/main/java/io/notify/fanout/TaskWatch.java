package io.notify.fanout;

import io.notify.common.http.OpsEndpoints;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a running instance that holds no task from one that works. Kafka Streams stays
 * {@code RUNNING} while its stream threads try in vain to rejoin their consumer group: after a
 * broker restart, a Kafka 4.4 group coordinator can hold the group behind ghost members until
 * their rebalance timeout (docs/operations.md, "A group stuck behind ghost members"), and the
 * instance then processes nothing with every health signal green. An instance that has held no
 * task (no partition assigned to its consumers, no standby task) for {@code alarm} reports not
 * ready, says why in the log once per episode, and exposes how long it has been idle
 * ({@link #unassignedSeconds()}). A periodic check feeds {@link #observe}; {@code /readyz} reads
 * {@link #readiness} with the state of the moment.
 *
 * <p>An instance beyond the task count (more stream threads in the group than tasks)
 * holds none for good and is reported not ready too: it adds nothing until another leaves.
 * Thread-safe.
 */
public final class TaskWatch {

    private static final Logger LOG = LoggerFactory.getLogger(TaskWatch.class);
    private static final long NONE = Long.MIN_VALUE;

    private final long alarmNanos;
    private final LongSupplier nanoTime;
    private long idleSince = NONE;
    private boolean alarmed;

    public TaskWatch(Duration alarm, LongSupplier nanoTime) {
        this.alarmNanos = alarm.toNanos();
        this.nanoTime = nanoTime;
    }

    /**
     * Records the instance's state and how much work it holds now (partitions assigned to its
     * consumers plus standby tasks), from the periodic check; returns {@link #readiness} for that state.
     */
    public synchronized OpsEndpoints.Readiness observe(KafkaStreams.State state, int tasks) {
        long now = nanoTime.getAsLong();
        if (tasks > 0 || !state.isRunningOrRebalancing()) {
            if (alarmed && tasks > 0) {
                LOG.info("fanout-streams holds {} task(s) again after {} s without", tasks, (now - idleSince) / 1_000_000_000L);
            }
            idleSince = NONE;
            alarmed = false;
        } else if (idleSince == NONE) {
            idleSince = now;
        } else if (!alarmed && now - idleSince >= alarmNanos) {
            alarmed = true;
            LOG.error("{}; it processes nothing until a rebalance completes (docs/operations.md, "
                    + "\"A group stuck behind ghost members\")", idleReason(state, now));
        }
        return readiness(state);
    }

    /**
     * The verdict for the state Kafka Streams is in now and the idle alarm as of the last
     * {@link #observe}: cheap and lock-light, so {@code /readyz} can ask on the I/O thread.
     */
    public synchronized OpsEndpoints.Readiness readiness(KafkaStreams.State now) {
        if (alarmed && now.isRunningOrRebalancing()) {
            return OpsEndpoints.Readiness.down(idleReason(now, nanoTime.getAsLong()));
        }
        return now == KafkaStreams.State.RUNNING ? OpsEndpoints.Readiness.up()
                : OpsEndpoints.Readiness.down("Kafka Streams is " + now);
    }

    private String idleReason(KafkaStreams.State state, long now) {
        return "no task assigned for " + (now - idleSince) / 1_000_000_000L + " s while Kafka Streams is " + state
                + ": the consumer group has not given this instance any partition";
    }

    /** Seconds since the instance last held a task while running (0 while it holds one). */
    public synchronized double unassignedSeconds() {
        return idleSince == NONE ? 0 : (nanoTime.getAsLong() - idleSince) / 1e9;
    }
}
