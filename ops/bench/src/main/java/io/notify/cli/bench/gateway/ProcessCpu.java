package io.notify.cli.bench.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * CPU time from outside, in clock ticks ({@code USER_HZ}, 100 per second on Linux): a process's user
 * plus system time ({@code /proc/<pid>/stat}, fields 14 and 15; the same fields of
 * {@code /proc/<pid>/task/<tid>/stat} for its JIT compiler threads) and the machine's busy and total
 * time (the {@code cpu} line of {@code /proc/stat}; idle and iowait are not busy). Parsers are pure.
 */
public final class ProcessCpu {

    /** Clock ticks per second of /proc's counters (USER_HZ; 100 on every Linux this runs on). */
    static final double TICKS_PER_SECOND = 100;

    /**
     * CPU ticks of a set of processes (and of their JIT compiler threads, part of the first figure)
     * and of the machine at one instant.
     */
    public record Ticks(long processes, long jit, long machineBusy, long machineTotal) {

        /** CPU seconds the processes, their JIT and the machine used from {@code before} to this sample, and the machine's busy share. */
        public Used since(Ticks before) {
            long total = machineTotal - before.machineTotal;
            return new Used((processes - before.processes) / TICKS_PER_SECOND, (jit - before.jit) / TICKS_PER_SECOND,
                    (machineBusy - before.machineBusy) / TICKS_PER_SECOND,
                    total <= 0 ? Double.NaN : (double) (machineBusy - before.machineBusy) / total);
        }
    }

    /**
     * CPU seconds over an interval: of the processes, of their JIT compiler threads (included in
     * the processes' figure), and of the whole machine; and the machine's busy fraction (all cores).
     */
    public record Used(double processSeconds, double jitSeconds, double machineSeconds, double machineBusyFraction) {
    }

    private ProcessCpu() {
    }

    /** Now: the summed ticks of {@code pids} and of their JIT threads (a process or thread already gone counts 0), and the machine's. */
    public static Ticks sample(List<Long> pids) throws IOException {
        long sum = 0;
        long jit = 0;
        for (long pid : pids) {
            Path proc = Path.of("/proc", Long.toString(pid));
            try {
                sum += processTicks(read(proc.resolve("stat")));
                try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
                    for (Path task : (Iterable<Path>) tasks::iterator) {
                        jit += jitTicks(task);
                    }
                }
            } catch (NoSuchFileException gone) {
                // the process or one of its threads ended meanwhile
            }
        }
        long[] machine = machineTicks(read(Path.of("/proc/stat")));
        return new Ticks(sum, jit, machine[0], machine[1]);
    }

    /** A thread's ticks if it is one of HotSpot's compiler threads ("C1 CompilerThre", "C2 CompilerThre"), else 0. */
    private static long jitTicks(Path task) throws IOException {
        try {
            return isJitThread(read(task.resolve("comm")).strip()) ? processTicks(read(task.resolve("stat"))) : 0;
        } catch (NoSuchFileException gone) {
            return 0;
        }
    }

    /** A /proc file, read as a stream: /proc reports size 0, and a size-driven read can stop short (seen on a sysctl file). */
    private static String read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    static boolean isJitThread(String comm) {
        return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre");
    }

    /** utime + stime of one {@code /proc/<pid>/stat} line; the command name (field 2) may contain spaces and ')'. */
    static long processTicks(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        // f[0] is field 3 (state): utime is field 14 → f[11], stime field 15 → f[12]
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** {busy, total} ticks from the first ("cpu ") line of /proc/stat: total minus idle and iowait is busy. */
    static long[] machineTicks(String procStat) {
        String line = procStat.lines().filter(l -> l.startsWith("cpu ")).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no cpu line in /proc/stat"));
        String[] f = line.substring(4).trim().split("\\s+");
        long total = 0;
        for (int i = 0; i < Math.min(f.length, 8); i++) { // user nice system idle iowait irq softirq steal (guest is in user)
            total += Long.parseLong(f[i]);
        }
        long idle = Long.parseLong(f[3]) + Long.parseLong(f[4]);
        return new long[] {total - idle, total};
    }
}
