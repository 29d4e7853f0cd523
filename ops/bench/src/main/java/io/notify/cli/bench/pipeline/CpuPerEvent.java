package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.gateway.ProcessCpu;
import io.notify.cli.bench.report.Stats;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Server CPU per delivered event over one step's measured window, in microseconds, from /proc
 * ({@link ProcessCpu}: utime + stime of each process, JIT threads included): the broker,
 * fanout-streams (all instances), ingest, the gateways (all nodes), Redis, and their sum, the server
 * total; apart from it the bench's own load generators (the ingest load JVM and the client agents),
 * which share the machine but are not the product. A role without a process to read (Redis on a
 * Cluster) is NaN and left out of the total; every figure is NaN for a step that delivered nothing.
 * The machine's busy fraction over the window (all cores, everything on the box) says how much the
 * processes competed for cores: on a saturated machine the same work reads as more CPU per event.
 */
public record CpuPerEvent(double brokerMicros, double fanoutMicros, double ingestMicros, double gatewaysMicros, double redisMicros,
                          double serverMicros, double loadMicros, double machineBusy) {

    /** No step measured. */
    static final CpuPerEvent NONE = new CpuPerEvent(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN);

    /** CPU seconds each role used over a window (NaN: not measured), and the machine's busy fraction over it. */
    record Seconds(double broker, double fanout, double ingest, double gateways, double redis, double load, double machineBusy) {
    }

    /** Each role's seconds per one of {@code delivered} events, in µs; the server total sums the roles that were measured. */
    static CpuPerEvent of(Seconds s, long delivered) {
        double server = 0;
        for (double role : new double[] {s.broker(), s.fanout(), s.ingest(), s.gateways(), s.redis()}) {
            server += Double.isNaN(role) ? 0 : role;
        }
        return new CpuPerEvent(micros(s.broker(), delivered), micros(s.fanout(), delivered), micros(s.ingest(), delivered),
                micros(s.gateways(), delivered), micros(s.redis(), delivered), micros(server, delivered), micros(s.load(), delivered),
                s.machineBusy());
    }

    private static double micros(double seconds, long events) {
        return events > 0 ? seconds * 1e6 / events : Double.NaN;
    }

    /**
     * The median over the runs of each column on its own (steps without a figure left out), as the
     * step table's other columns: so the total's median need not be the sum of the roles' medians.
     */
    static CpuPerEvent median(List<CpuPerEvent> runs) {
        List<CpuPerEvent> of = runs.stream().filter(c -> c != null).toList();
        return new CpuPerEvent(Stats.median(of, CpuPerEvent::brokerMicros), Stats.median(of, CpuPerEvent::fanoutMicros),
                Stats.median(of, CpuPerEvent::ingestMicros), Stats.median(of, CpuPerEvent::gatewaysMicros), Stats.median(of, CpuPerEvent::redisMicros),
                Stats.median(of, CpuPerEvent::serverMicros), Stats.median(of, CpuPerEvent::loadMicros), Stats.median(of, CpuPerEvent::machineBusy));
    }


    /** "server 1,210.5 µs (broker 301.2, fanout 480.0, ingest 190.3, gateways 230.0, redis 9.0), load generators 150.2 µs, ...". */
    String describe() {
        return String.format("server %s µs (broker %s, fanout %s, ingest %s, gateways %s, redis %s), load generators %s µs, "
                        + "machine busy %s%%", micros(serverMicros), micros(brokerMicros), micros(fanoutMicros), micros(ingestMicros),
                micros(gatewaysMicros), micros(redisMicros), micros(loadMicros), percent(machineBusy));
    }

    /** µs with one decimal, "-" for not measured. */
    static String micros(double us) {
        return Double.isNaN(us) ? "-" : String.format("%,.1f", us);
    }

    /** A fraction as a whole percentage, "-" for not measured. */
    static String percent(double fraction) {
        return Double.isNaN(fraction) ? "-" : String.format("%.0f", fraction * 100);
    }

    /**
     * The process ids of each role, read once the stack, the load generator and the clients run (the
     * pipeline bench restarts none of them); an empty list is a role not measured.
     */
    record Processes(List<Long> broker, List<Long> fanouts, List<Long> ingest, List<Long> gateways, List<Long> redis,
                     List<Long> load) {

        Processes {
            // a child not running reports -1: it has nothing to read
            broker = running(broker);
            fanouts = running(fanouts);
            ingest = running(ingest);
            gateways = running(gateways);
            redis = running(redis);
            load = running(load);
        }

        private static List<Long> running(List<Long> pids) {
            return pids.stream().filter(p -> p > 0).toList();
        }

        private List<List<Long>> roles() {
            return List.of(broker, fanouts, ingest, gateways, redis, load);
        }
    }

    /** Starts a window: every role's CPU ticks, and the machine's, now. */
    static Window start(Processes processes) throws IOException {
        List<ProcessCpu.Ticks> before = new ArrayList<>();
        for (List<Long> pids : processes.roles()) {
            before.add(ProcessCpu.sample(pids));
        }
        return new Window(processes, List.copyOf(before), ProcessCpu.sample(List.of()));
    }

    /** A window under way: the ticks at its start. */
    record Window(Processes processes, List<ProcessCpu.Ticks> before, ProcessCpu.Ticks machineBefore) {

        /** The CPU each role used since the start, per one of {@code delivered} events. */
        CpuPerEvent end(long delivered) throws IOException {
            List<List<Long>> roles = processes.roles();
            double[] seconds = new double[roles.size()];
            for (int i = 0; i < seconds.length; i++) {
                ProcessCpu.Ticks after = ProcessCpu.sample(roles.get(i));
                seconds[i] = roles.get(i).isEmpty() ? Double.NaN : after.since(before.get(i)).processSeconds();
            }
            double busy = ProcessCpu.sample(List.of()).since(machineBefore).machineBusyFraction();
            return of(new Seconds(seconds[0], seconds[1], seconds[2], seconds[3], seconds[4], seconds[5], busy), delivered);
        }
    }
}
