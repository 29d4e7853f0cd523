package io.notify.cli.bench.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.bench.gateway.ProcessCpu;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuPerEventTest {

    @Test
    void eachRoleIsItsSecondsPerDeliveredEventAndTheServerTotalLeavesOutTheLoadGenerators() {
        CpuPerEvent c = CpuPerEvent.of(new CpuPerEvent.Seconds(2.0, 3.0, 1.0, 4.0, 0.1, 1.5, 0.8), 20_000);
        assertEquals(100, c.brokerMicros(), 1e-9, "2 s over 20,000 events");
        assertEquals(150, c.fanoutMicros(), 1e-9);
        assertEquals(50, c.ingestMicros(), 1e-9);
        assertEquals(200, c.gatewaysMicros(), 1e-9);
        assertEquals(5, c.redisMicros(), 1e-9);
        assertEquals(505, c.serverMicros(), 1e-9, "broker + fanout + ingest + gateways + redis");
        assertEquals(75, c.loadMicros(), 1e-9);
        assertEquals(0.8, c.machineBusy(), 1e-9);
    }

    @Test
    void aRoleNotMeasuredIsNaNAndOutOfTheTotalAndNothingDeliveredIsNaN() {
        CpuPerEvent noRedis = CpuPerEvent.of(new CpuPerEvent.Seconds(1.0, 1.0, 1.0, 1.0, Double.NaN, 1.0, 0.5), 1000);
        assertTrue(Double.isNaN(noRedis.redisMicros()));
        assertEquals(4000, noRedis.serverMicros(), 1e-9);
        assertEquals("-", CpuPerEvent.micros(noRedis.redisMicros()));
        assertEquals("4,000.0", CpuPerEvent.micros(noRedis.serverMicros()));

        CpuPerEvent none = CpuPerEvent.of(new CpuPerEvent.Seconds(1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5), 0);
        assertTrue(Double.isNaN(none.brokerMicros()) && Double.isNaN(none.serverMicros()) && Double.isNaN(none.loadMicros()));
        assertEquals(0.5, none.machineBusy(), 1e-9, "the machine was busy all the same");
    }

    @Test
    void theMedianIsTakenPerColumnLeavingOutStepsWithoutAFigure() {
        List<CpuPerEvent> runs = Arrays.asList(new CpuPerEvent(100, 300, 50, 200, 5, 655, 80, 0.9),
                new CpuPerEvent(120, 200, 60, 260, 7, 647, 70, 0.7), new CpuPerEvent(90, 250, 70, 230, Double.NaN, 640, 90, 0.8),
                null);
        CpuPerEvent m = CpuPerEvent.median(runs);
        assertEquals(100, m.brokerMicros(), 1e-9);
        assertEquals(250, m.fanoutMicros(), 1e-9);
        assertEquals(60, m.ingestMicros(), 1e-9);
        assertEquals(230, m.gatewaysMicros(), 1e-9);
        assertEquals(6, m.redisMicros(), 1e-9, "of the two runs that measured it");
        assertEquals(647, m.serverMicros(), 1e-9, "the total's own median, not the sum of the roles' (640)");
        assertEquals(80, m.loadMicros(), 1e-9);
        assertEquals(0.8, m.machineBusy(), 1e-9);
        assertTrue(Double.isNaN(CpuPerEvent.median(List.of()).serverMicros()));
    }

    @Test
    void aWindowReadsTheCpuOfEachRolesProcessesAndSkipsChildrenNotRunning() throws Exception {
        long self = ProcessHandle.current().pid();
        CpuPerEvent.Processes p = new CpuPerEvent.Processes(List.of(self), List.of(), List.of(), List.of(), List.of(-1L), List.of());
        assertEquals(List.of(), p.redis(), "a child that is not running reports -1");
        CpuPerEvent.Window w = CpuPerEvent.start(p);
        long from = ProcessCpu.sample(List.of(self)).processes();
        long deadline = System.nanoTime() + 5_000_000_000L;
        long spin = 0;
        while (ProcessCpu.sample(List.of(self)).processes() < from + 3 && System.nanoTime() - deadline < 0) {
            for (int i = 0; i < 100_000; i++) {
                spin += i ^ spin; // work until /proc shows 3 more ticks (30 ms) of this JVM's CPU
            }
        }
        CpuPerEvent c = w.end(1000);
        assertTrue(c.brokerMicros() >= 30, "at least 30 ms over 1,000 events: " + c + " " + spin);
        assertEquals(c.brokerMicros(), c.serverMicros(), 1e-9, "the only server role measured");
        assertTrue(Double.isNaN(c.fanoutMicros()) && Double.isNaN(c.redisMicros()) && Double.isNaN(c.loadMicros()), c.toString());
        assertTrue(c.machineBusy() > 0 && c.machineBusy() <= 1, c.toString());
    }
}
