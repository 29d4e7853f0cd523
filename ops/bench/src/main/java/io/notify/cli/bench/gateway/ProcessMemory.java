package io.notify.cli.bench.gateway;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Memory of another JVM, from outside: heap used after a full GC ({@code jcmd <pid> GC.run}, then
 * {@code GC.heap_info}), resident set size ({@code VmRSS} of {@code /proc/<pid>/status}), open file
 * descriptors, and the kernel's TCP buffer memory ({@code /proc/net/sockstat}, machine-wide). The
 * parsers are pure and unit-tested.
 */
public final class ProcessMemory {

    /** One sample of a process. {@code tcpMemPages} is machine-wide (both ends of loopback sockets). */
    record Sample(long heapUsedBytes, long heapCommittedBytes, long rssBytes, long openFiles, long tcpMemPages) {
    }

    private static final Pattern GEN_USED = Pattern.compile("total\\s+(\\d+)K,\\s+used\\s+(\\d+)K");
    private static final Pattern VM_RSS = Pattern.compile("(?m)^VmRSS:\\s+(\\d+)\\s+kB");
    private static final Pattern TCP_MEM = Pattern.compile("(?m)^TCP:.*\\bmem\\s+(\\d+)");
    private static final Pattern NOFILE = Pattern.compile("(?m)^Max open files\\s+(\\d+|unlimited)\\s+(\\d+|unlimited)");

    private ProcessMemory() {
    }

    /** Forces full GCs in {@code pid}, then samples it. */
    static Sample sample(long pid) throws IOException, InterruptedException {
        jcmd(pid, "GC.run");
        jcmd(pid, "GC.run"); // a second pass collects what the first one's finalization/reference processing freed
        String info = jcmd(pid, "GC.heap_info");
        return new Sample(heapUsedBytes(info), heapCommittedBytes(info), rssBytes(pid),
                openFiles(pid), tcpMemPages(Files.readString(Path.of("/proc/net/sockstat"))));
    }

    static long openFiles(long pid) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.count();
        }
    }

    /** The soft limit on open files of {@code pid} (from /proc/pid/limits), or -1 when unlimited/unknown. */
    static long openFilesLimit(long pid) throws IOException {
        return openFilesLimit(Files.readString(Path.of("/proc", Long.toString(pid), "limits")));
    }

    static long openFilesLimit(String limits) {
        Matcher m = NOFILE.matcher(limits);
        return m.find() && !m.group(1).equals("unlimited") ? Long.parseLong(m.group(1)) : -1;
    }

    /**
     * Heap used, in bytes, from {@code GC.heap_info}: the sum of every "total NK, used MK" line —
     * one line for G1 ("garbage-first heap"), one per generation for Serial and Parallel. Metaspace
     * lines ("used NK, committed") do not match.
     */
    static long heapUsedBytes(String heapInfo) {
        return heapKb(heapInfo, 2) * 1024;
    }

    /** Heap committed ("total"), in bytes, from the same lines as {@link #heapUsedBytes}. */
    static long heapCommittedBytes(String heapInfo) {
        return heapKb(heapInfo, 1) * 1024;
    }

    private static long heapKb(String heapInfo, int group) {
        Matcher m = GEN_USED.matcher(heapInfo);
        long kb = 0;
        boolean any = false;
        while (m.find()) {
            kb += Long.parseLong(m.group(group));
            any = true;
        }
        if (!any) {
            throw new IllegalArgumentException("no heap usage in GC.heap_info output: " + heapInfo.strip());
        }
        return kb;
    }

    /** The resident set size of {@code pid} now ({@code VmRSS}), without forcing a GC. */
    public static long rssBytes(long pid) throws IOException {
        return rssBytes(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
    }

    static long rssBytes(String procStatus) {
        Matcher m = VM_RSS.matcher(procStatus);
        if (!m.find()) {
            throw new IllegalArgumentException("no VmRSS line in /proc/<pid>/status");
        }
        return Long.parseLong(m.group(1)) * 1024;
    }

    static long tcpMemPages(String sockstat) {
        Matcher m = TCP_MEM.matcher(sockstat);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** Runs {@code jcmd <pid> <command>} with a bound and returns its output. */
    static String jcmd(long pid, String command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), command));
        Path out = Files.createTempFile("notify-jcmd-", ".txt");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("jcmd " + pid + " " + command + " did not finish within 120 s");
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException("jcmd " + pid + " " + command + " failed (" + p.exitValue() + "): " + text.strip());
            }
            return text;
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
