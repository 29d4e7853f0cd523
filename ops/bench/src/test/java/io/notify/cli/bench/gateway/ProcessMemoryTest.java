package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Parsing jcmd and /proc output of the gateway process. */
class ProcessMemoryTest {

    @Test
    void g1HeapInfoGivesTheHeapLineOnly() {
        String g1 = """
                12345:
                 garbage-first heap   total 262144K, used 23456K [0x00000000c0000000, 0x0000000100000000)
                  region size 1024K, 3 young (3072K), 0 survivors (0K)
                 Metaspace       used 41234K, committed 41856K, reserved 1114112K
                  class space    used 5123K, committed 5376K, reserved 1048576K
                """;
        assertEquals(23456L * 1024, ProcessMemory.heapUsedBytes(g1));
        assertEquals(262144L * 1024, ProcessMemory.heapCommittedBytes(g1));
    }

    @Test
    void generationalHeapInfoSumsTheGenerations() {
        String parallel = """
                 PSYoungGen      total 76288K, used 3932K [0x000000076ab00000, 0x0000000770000000, 0x00000007c0000000)
                  eden space 65536K, 6% used [0x000000076ab00000,0x000000076aed7240,0x000000076eb00000)
                 ParOldGen       total 175104K, used 1000K [0x00000006c0000000, 0x00000006cab00000, 0x000000076ab00000)
                 Metaspace       used 3200K, committed 4480K, reserved 1056768K
                """;
        assertEquals((3932L + 1000) * 1024, ProcessMemory.heapUsedBytes(parallel));
        assertEquals((76288L + 175104) * 1024, ProcessMemory.heapCommittedBytes(parallel));
        assertThrows(IllegalArgumentException.class, () -> ProcessMemory.heapUsedBytes("12345:\nno such process\n"));
    }

    @Test
    void procFiles() {
        assertEquals(231_456L * 1024, ProcessMemory.rssBytes("Name:\tjava\nVmHWM:\t  240000 kB\nVmRSS:\t  231456 kB\nRssAnon:\t 1 kB\n"));
        assertEquals(146, ProcessMemory.tcpMemPages("sockets: used 2345\nTCP: inuse 2010 orphan 0 tw 3 alloc 2020 mem 146\n"
                + "UDP: inuse 2 mem 1\n"));
        assertEquals(20000, ProcessMemory.openFilesLimit("""
                Limit                     Soft Limit           Hard Limit           Units
                Max processes             unlimited            unlimited            processes
                Max open files            20000                20000                files
                """));
        assertEquals(-1, ProcessMemory.openFilesLimit("Max open files            unlimited            unlimited            files\n"));
    }
}
