package io.notify.fanout;

import static org.apache.kafka.streams.KafkaStreams.State.REBALANCING;
import static org.apache.kafka.streams.KafkaStreams.State.RUNNING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.http.OpsEndpoints;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;

class TaskWatchTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final TaskWatch watch = new TaskWatch(Duration.ofSeconds(60), nanos::get);

    private void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    @Test
    void aRunningInstanceWithTasksIsReady() {
        assertTrue(watch.observe(RUNNING, 3).ready());
        assertEquals(0, watch.unassignedSeconds());
    }

    @Test
    void notRunningIsNotReadyAndSaysTheState() {
        OpsEndpoints.Readiness r = watch.observe(REBALANCING, 2);
        assertFalse(r.ready());
        assertEquals("Kafka Streams is REBALANCING", r.reason());
    }

    @Test
    void runningWithoutTasksPastTheAlarmIsNotReadyUntilATaskComesBack() {
        assertTrue(watch.observe(RUNNING, 0).ready(), "a rebalance in progress gets the alarm's grace");
        advance(Duration.ofSeconds(59));
        assertTrue(watch.observe(RUNNING, 0).ready());
        assertEquals(59, watch.unassignedSeconds(), 0.001);

        advance(Duration.ofSeconds(2));
        OpsEndpoints.Readiness stuck = watch.observe(RUNNING, 0);
        assertFalse(stuck.ready());
        assertTrue(stuck.reason().startsWith("no task assigned for 61 s while Kafka Streams is RUNNING"), stuck.reason());
        assertEquals(stuck, watch.readiness(RUNNING), "what /readyz shows between checks");

        assertTrue(watch.observe(RUNNING, 1).ready());
        assertEquals(0, watch.unassignedSeconds());
    }

    @Test
    void flappingBetweenRunningAndRebalancingDoesNotRestartTheClock() {
        watch.observe(RUNNING, 0);
        advance(Duration.ofSeconds(40));
        watch.observe(REBALANCING, 0);
        advance(Duration.ofSeconds(30));
        assertFalse(watch.observe(RUNNING, 0).ready(), "70 s without a task in all");
    }

    @Test
    void anInstanceThatIsNotRunningIsNotCountedAsIdle() {
        watch.observe(KafkaStreams.State.PENDING_SHUTDOWN, 0);
        advance(Duration.ofMinutes(5));
        OpsEndpoints.Readiness r = watch.observe(KafkaStreams.State.PENDING_SHUTDOWN, 0);
        assertEquals("Kafka Streams is PENDING_SHUTDOWN", r.reason());
        assertEquals(0, watch.unassignedSeconds());
    }
}
