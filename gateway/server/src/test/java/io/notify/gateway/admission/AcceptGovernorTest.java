package io.notify.gateway.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.gateway.metrics.GatewayMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

class AcceptGovernorTest {

    private static final long MS = 1_000_000;
    private final List<Runnable> backlog = new ArrayList<>(); // an I/O thread busy with other tasks
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private int suspends;
    private int resumes;

    private AcceptGovernor governor() {
        Executor idle = Runnable::run;
        Executor busy = backlog::add;
        return new AcceptGovernor(List.of(idle, busy), new AcceptGovernor.Listener() {
            @Override
            public void suspendAccepts() {
                suspends++;
            }

            @Override
            public void resumeAccepts() {
                resumes++;
            }
        }, Duration.ofMillis(100), Duration.ofMillis(20), new GatewayMetrics(registry));
    }

    @Test
    void acceptsStopWhileOneIoThreadLagsAndStartAgainOnceItCaughtUp() {
        AcceptGovernor g = governor();
        long t = System.nanoTime();
        g.probe(t); // the idle thread answers at once; the busy one's probe waits in its queue
        g.probe(t + 50 * MS);
        assertFalse(g.suspended(), "a wait under the bound");
        assertEquals(0, suspends);

        g.probe(t + 150 * MS);
        assertTrue(g.suspended(), "a probe 150 ms in the queue");
        g.probe(t + 200 * MS);
        assertEquals(1, suspends, "suspended once per episode");
        assertEquals(1.0, registry.get("notify.gateway.accept.suspensions").counter().count());
        assertEquals(1.0, registry.get("notify.gateway.accept.suspended").gauge().value());

        backlog.forEach(Runnable::run); // the thread works through its queue
        backlog.clear();
        g.probe(System.nanoTime()); // sends a fresh probe
        backlog.forEach(Runnable::run); // which it answers at once
        backlog.clear();
        g.probe(System.nanoTime());
        assertFalse(g.suspended());
        assertEquals(1, resumes);
        assertEquals(0.0, registry.get("notify.gateway.accept.suspended").gauge().value());
    }
}
