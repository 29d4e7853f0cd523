package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.PrometheusText;
import io.notify.cli.bench.gateway.ClientFleet;
import io.notify.cli.bench.gateway.IdCheck;
import io.notify.cli.bench.report.ProgressBar;
import io.notify.cli.stack.ChildAgent;
import io.notify.platform.QueryApi;
import io.notify.platform.ServiceProcess;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One step of the sweep: a warm-up at the step's rate whose deliveries are awaited and discarded,
 * then the clients track the measured run (each event counted once, by id) and the load runs; the
 * step ends when every accepted event has arrived or the settle bound is over, and is then checked
 * by id against the events ingest accepted (an accepted event its recipient's app never got is
 * lost). Clients a gateway closes meanwhile reconnect with their position, as the SDK does.
 * With acks on, every client acks what it receives ({@link ClientFleet#acks}), and each wait for
 * deliveries is followed by one for the receipts, so none of a step's is counted in the next.
 * Every process's CPU is read over the window whose deliveries the step counts: from the start of
 * the load until the count, so the wait for the last deliveries is in it (the work for events that
 * are counted), the warm-up, the id check and the receipts' settling are not.
 */
final class PipelineSteps {

    /** About the serialized size of one pipeline event, for the baseline's records. */
    static final int EVENT_BYTES = 128;
    /** Bound of the wait for a step's last receipts. */
    private static final Duration RECEIPTS_SETTLE = Duration.ofSeconds(10);
    /** A gateway's flush of waiting ack receipts (notify.gateway.inbox.ack-flush-interval). */
    private static final Duration ACK_FLUSH = Duration.ofMillis(100);
    private final ClientFleet fleet;
    private final ChildAgent load;
    private final List<ServiceProcess> gateways;
    private final List<ServiceProcess> fanouts;
    private final Duration ackInterval;
    private String acks = "off";
    private final ProgressBar bar;
    private final Duration warmup;
    private final Duration step;
    private final Duration settle;
    private final int users;
    private final QueryApi queryApi;
    private final LostEvents.NodeTopics nodeTopics;
    private final CpuPerEvent.Processes processes;

    PipelineSteps(ClientFleet fleet, int users, ChildAgent load, List<ServiceProcess> gateways, List<ServiceProcess> fanouts,
                  QueryApi queryApi, LostEvents.NodeTopics nodeTopics, ProgressBar bar, Duration warmup, Duration step,
                  Duration settle, Duration ackInterval, CpuPerEvent.Processes processes) {
        this.fleet = fleet;
        this.users = users;
        this.queryApi = queryApi;
        this.nodeTopics = nodeTopics;
        this.load = load;
        this.gateways = List.copyOf(gateways);
        this.fanouts = List.copyOf(fanouts);
        this.ackInterval = ackInterval;
        this.bar = bar;
        this.warmup = warmup;
        this.step = step;
        this.settle = settle;
        this.processes = processes;
    }

    /**
     * Connects every client, then watches them for longer than the gateways' resume timeout: a
     * connection whose resume frame the gateway did not process in time is closed by it (1002,
     * resume_timeout) after the client already counted it as open; those are connected again, for
     * at most {@code rounds} rounds. Returns how many reconnects that took.
     */
    long connect(double rate, Duration resumeTimeout, int rounds) throws IOException, InterruptedException {
        long reconnects = 0;
        int missing = users;
        for (int round = 0; round < rounds && missing > 0; round++) {
            reconnects += round == 0 ? 0 : missing;
            int established = fleet.open(rate, Duration.ofSeconds(60 + users / 100));
            if (established < missing) {
                throw new IOException("only " + established + " of " + missing + " clients connected");
            }
            long watchEnd = System.nanoTime() + resumeTimeout.plusMillis(2500).toNanos();
            while (System.nanoTime() - watchEnd < 0) {
                TimeUnit.MILLISECONDS.sleep(250); // poll interval: closes within the resume timeout show in progress lines
            }
            missing = (int) (users - fleet.progress()[0]);
            if (missing > 0) {
                bar.println(String.format("bench pipeline: %d clients closed by a gateway after connecting; connecting them again",
                        missing));
            }
        }
        if (missing > 0) {
            throw new IOException(missing + " clients still closed after " + rounds + " connect rounds");
        }
        fleet.hold(true);
        return reconnects;
    }

    /** From now on every client acks what it receives ("on", at most once per ack interval) or not ("off"). */
    void acks(String mode) throws IOException, InterruptedException {
        if (!mode.equals(acks)) {
            fleet.acks(mode.equals("on"), ackInterval);
            acks = mode;
        }
    }

    /** An unreported load at {@code rate} whose deliveries are awaited: JIT, Streams tasks and caches warm up. */
    void warmUp(double rate, Duration duration) throws IOException, InterruptedException {
        fleet.track("w0", users);
        bar.track(ProgressBar.timed(0, 0, duration), () -> String.format("initial warm-up at %,.0f events/s", rate));
        PacedIngestLoad.Ran w = paced(rate, duration, "w0");
        awaitDelivered(w.accepted(), "initial warm-up settling");
        settleReceipts(List.of(), List.of(), "initial warm-up: receipts settling");
    }

    StepResult run(int run, double rate, double doneBefore, double share) throws IOException, InterruptedException {
        String label = String.format("run %d, %,.0f events/s, acks %s", run, rate, acks);
        if (!warmup.isZero()) {
            String tag = "w" + run + "-" + (long) rate;
            fleet.track(tag, users);
            bar.track(ProgressBar.timed(doneBefore, doneBefore + share * 0.1, warmup), () -> label + ": warm-up");
            PacedIngestLoad.Ran w = paced(rate, warmup, tag);
            awaitDelivered(w.accepted(), label + ": warm-up settling");
            settleReceipts(List.of(), List.of(), label + ": warm-up receipts settling");
        }
        String tag = "m" + run + "-" + (long) rate;
        fleet.track(tag, users);
        bar.track(ProgressBar.timed(doneBefore + share * 0.1, doneBefore + share * 0.95, step), () -> {
            long[] p = fleet.progress();
            return String.format("%s: %,d clients open, ~%,d delivered, ingest accepted ~%s", label, p[0], p[1], load.progress());
        });
        List<PrometheusText> before = gatewayMetrics();
        List<PrometheusText> fanoutsBefore = DeliveryPaths.scrape(fanouts);
        CpuPerEvent.Window cpu = CpuPerEvent.start(processes);
        long windowStart = System.nanoTime();
        PacedIngestLoad.Ran ran = paced(rate, step, tag);
        awaitDelivered(ran.accepted(), label + ": settling");
        ClientFleet.Delivered d = fleet.delivered();
        CpuPerEvent cpuPerEvent = cpu.end(d.events());
        CommitCost commits = CommitCost.between(fanoutsBefore, DeliveryPaths.scrape(fanouts), (System.nanoTime() - windowStart) / 1e9);
        IdCheck ids = fleet.checkIds(Path.of(ran.acceptedIds()));
        List<PrometheusText> after = gatewayMetrics();
        ReceiptCounts receipts = settleReceipts(before, fanoutsBefore, label + ": receipts settling");
        List<String> where = ids.lost() == 0 ? List.of() : LostEvents.attribute(queryApi, nodeTopics, tag, users, ids);
        where.forEach(w -> bar.println("bench pipeline: " + label + ": lost " + w));
        return StepResult.of(run, rate, acks, ran, d, ids, HopBudget.between(before, after), DeliveryPaths.between(before, after),
                receipts, cpuPerEvent, commits, where);
    }

    /** Every gateway's /metrics now (the hop histograms of the budget, the delivery paths). */
    private List<PrometheusText> gatewayMetrics() throws IOException, InterruptedException {
        return DeliveryPaths.scrape(gateways);
    }

    /**
     * The receipts since the scrapes {@code gatewaysBefore} and {@code fanoutsBefore} (empty: none
     * wanted), once they settled: with acks on, the last acks go out up to an ack interval after the
     * last delivery, a gateway writes them up to a flush later and fanout-streams applies them after
     * its commit, so this waits at least an ack interval and a flush, then until fanout-streams read as
     * many as the gateways wrote and the counters stood still for half a second (at most
     * {@link #RECEIPTS_SETTLE}). With acks off, the counts now.
     */
    private ReceiptCounts settleReceipts(List<PrometheusText> gatewaysBefore, List<PrometheusText> fanoutsBefore, String status)
            throws IOException, InterruptedException {
        boolean on = acks.equals("on");
        if (!on && gatewaysBefore.isEmpty()) {
            return ReceiptCounts.NONE;
        }
        bar.track(() -> Double.NaN, () -> status);
        if (on) {
            TimeUnit.MILLISECONDS.sleep(ackInterval.plus(ACK_FLUSH).toMillis());
        }
        List<PrometheusText> gatewaysFrom = gatewaysBefore.isEmpty() ? gatewayMetrics() : gatewaysBefore;
        List<PrometheusText> fanoutsFrom = fanoutsBefore.isEmpty() ? DeliveryPaths.scrape(fanouts) : fanoutsBefore;
        ReceiptCounts last = ReceiptCounts.between(gatewaysFrom, gatewayMetrics(), fanoutsFrom, DeliveryPaths.scrape(fanouts));
        long deadline = System.nanoTime() + RECEIPTS_SETTLE.toNanos();
        for (int still = 0; on && still < 2 && System.nanoTime() - deadline < 0; ) {
            TimeUnit.MILLISECONDS.sleep(250); // poll interval of a bounded wait for the last receipts
            ReceiptCounts now = ReceiptCounts.between(gatewaysFrom, gatewayMetrics(), fanoutsFrom, DeliveryPaths.scrape(fanouts));
            still = now.equals(last) && now.caughtUp() ? still + 1 : 0;
            last = now;
        }
        return last;
    }

    private PacedIngestLoad.Ran paced(double rate, Duration duration, String tag) throws IOException, InterruptedException {
        load.send("run " + rate + " " + duration.toMillis() + " " + tag);
        return NotifyJson.mapper().readValue(load.await("ran", duration.plusSeconds(90)), PacedIngestLoad.Ran.class);
    }

    /** Waits (bounded by the settle time) until the clients received {@code accepted} events since the last reset. */
    private void awaitDelivered(long accepted, String status) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + settle.toNanos();
        long got = fleet.delivered().events();
        bar.track(() -> Double.NaN, () -> status);
        while (got < accepted && System.nanoTime() - deadline < 0) {
            TimeUnit.MILLISECONDS.sleep(250); // poll interval of a bounded wait for the last deliveries
            got = fleet.delivered().events();
        }
    }
}
