package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessCpuTest {

    @Test
    void processTicksAreUserPlusSystemEvenWithSpacesAndParenthesesInTheName() {
        String stat = "4242 (java (gw) x) S 1 4242 4242 0 -1 4194560 90000 0 12 0 1234 567 8 9 20 0 41 0 100 0 0";
        assertEquals(1234 + 567, ProcessCpu.processTicks(stat));
    }

    @Test
    void machineBusyLeavesOutIdleAndIowait() {
        String procStat = "cpu  100 5 50 1000 20 3 2 0 0 0\ncpu0 50 2 25 500 10 1 1 0 0 0\nintr 1\n";
        assertArrayEquals(new long[] {160, 1180}, ProcessCpu.machineTicks(procStat));
    }

    @Test
    void usedIsTheDifferenceInSecondsAndTheBusyShare() {
        ProcessCpu.Used u = new ProcessCpu.Ticks(350, 60, 900, 1400).since(new ProcessCpu.Ticks(100, 10, 500, 1000));
        assertEquals(2.5, u.processSeconds(), 1e-9);
        assertEquals(0.5, u.jitSeconds(), 1e-9);
        assertEquals(4.0, u.machineSeconds(), 1e-9);
        assertEquals(1.0, u.machineBusyFraction(), 1e-9);
    }

    @Test
    void thisProcessHasUsedSomeCpu() throws Exception {
        ProcessCpu.Ticks t = ProcessCpu.sample(List.of(ProcessHandle.current().pid()));
        assertTrue(t.machineTotal() > 0 && t.machineBusy() <= t.machineTotal());
        assertTrue(t.processes() > 0, "a JVM that has started and run tests has used CPU: " + t);
        assertTrue(t.jit() > 0 && t.jit() < t.processes(), "its JIT compiled something, and is part of it: " + t);
    }

    @Test
    void jitThreadsAreHotSpotsCompilerThreads() {
        assertTrue(ProcessCpu.isJitThread("C2 CompilerThre"));
        assertTrue(ProcessCpu.isJitThread("C1 CompilerThre"));
        assertTrue(!ProcessCpu.isJitThread("XNIO-1 I/O-1") && !ProcessCpu.isJitThread("GC Thread#0"));
    }
}
