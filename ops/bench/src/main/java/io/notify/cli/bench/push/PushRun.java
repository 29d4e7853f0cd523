package io.notify.cli.bench.push;

import io.notify.cli.bench.gateway.ProcessCpu;
import io.notify.cli.bench.gateway.ProcessMemory;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.sender.PushMessages;
import io.notify.push.webpush.VapidKeys;
import io.notify.schemas.topic.TopicCatalog;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * One run of {@code bench push}, in a world of its own (a fresh topic prefix: fresh topics and
 * consumer group; a fresh receiver with fresh subscriptions): first the baseline, the receiver
 * alone driven by a plain HTTP client ({@link ReceiverBaseline}); then the sender phase: a push
 * sender started in a child JVM on the run's {@code notify.fallback}, and once its group has every
 * partition, fallback records produced at the offered rate for warm-up + duration
 * ({@link FallbackLoad}); the sender's CPU and the arrivals at the receiver are measured over the
 * window after the warm-up; then every push is waited for (at most the drain bound, stopping early
 * when nothing arrives for {@link #STALL}); then the sender is stopped. Every wait is bounded; the
 * child is stopped even when the run fails.
 */
final class PushRun {

    /** The VAPID {@code sub} of the run's sender and baseline. */
    static final String SUBJECT = "mailto:bench@notify.invalid";
    /** The drain gives up early when no push arrived for this long. */
    static final Duration STALL = Duration.ofSeconds(15);
    /** aes128gcm adds a 86-byte header (salt, rs, idlen, the 65-byte key id), a padding delimiter and a 16-byte tag. */
    static final int ENCRYPTION_OVERHEAD = 86 + 1 + 16;

    /**
     * What every run is told.
     *
     * @param senderSettings  extra sender settings ({@code key=value}), e.g. {@code notify.push.max-in-flight}
     * @param senderJvmOptions extra options of the sender's JVM, after its heap
     * @param group           the sender's consumer group id as it will be (before the run's prefix)
     */
    record Plan(double rate, int users, int devicesPerUser, Duration warmup, Duration duration, Duration latency, Duration drain,
                int partitions, Map<String, String> senderSettings, List<String> senderJvmOptions, String group,
                int baselineConcurrency, Duration baselineDuration) {
    }

    /**
     * CPU per push received in the window, in µs, from /proc (utime + stime): the sender (its JIT
     * compiler threads part of it, and apart), the broker, and this JVM (the receiver, the load
     * generator, the bench); and the machine's busy fraction over the window (all cores, everything on it).
     */
    record Cpu(double senderSeconds, double senderMicrosPerPush, double senderJitMicrosPerPush, double brokerMicrosPerPush,
               double benchMicrosPerPush, double machineBusy) {
    }

    /**
     * One run.
     *
     * @param offeredRecordsPerSecond the rate asked for; {@code pushes.recordsPerSecond()} is the rate made in the window
     * @param offeredPushesPerSecond  records made per second in the window x devices per user
     * @param pushesPerSecond         pushes received per second in the window (steady state)
     * @param ratioToBaseline         {@code pushesPerSecond} over the receiver's own capacity in this run
     * @param drainSeconds            from the load's end to the last arrival
     * @param senderStartSeconds      from starting the child JVM until its group held every partition
     * @param senderRssMiB            the sender's resident set at the window's end
     * @param loadAverage             the machine's 1-minute load average when the run started
     * @param rejected                pushes the receiver refused in the sender phase, by status and reason (goal none)
     */
    record Result(int run, double offeredRecordsPerSecond, double offeredPushesPerSecond, double pushesPerSecond,
                  double ratioToBaseline, PushTally pushes, Cpu cpu, double drainSeconds, double senderStartSeconds,
                  double senderRssMiB, double loadAverage, Map<String, Long> rejected, ReceiverBaseline.Result baseline) {
    }

    private final String bootstrap;
    private final Admin admin;
    private final long brokerPid;
    private final Consumer<String> progress;
    private volatile FallbackLoad load;
    private volatile LatencyPushService.Tally tally;

    PushRun(String bootstrap, Admin admin, long brokerPid, Consumer<String> progress) {
        this.bootstrap = bootstrap;
        this.admin = admin;
        this.brokerPid = brokerPid;
        this.progress = progress;
    }

    /** Live counts for a progress bar: records made, pushes received. */
    String status() {
        FallbackLoad l = load;
        LatencyPushService.Tally t = tally;
        return l == null || t == null ? "" : String.format("%,d records produced, %,d pushes received", l.sent(), t.accepted());
    }

    Result run(Plan plan, int run, String prefix, VapidKeys vapid, Path dir) throws Exception {
        double loadAverage = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        TopicCatalog topics = TopicCatalog.of(prefix);
        // notify.push-changes is fanout-streams' to make (the sender writes "gone" there); outcomes and the DLQ the sender makes
        admin.createTopics(List.of(new NewTopic(topics.fallback().name(), plan.partitions(), (short) 1),
                new NewTopic(topics.pushChanges().name(), plan.partitions(), (short) 1))).all().get(30, TimeUnit.SECONDS);
        try (LatencyPushService receiver = LatencyPushService.start(plan.latency())) {
            progress.accept(String.format("subscribing %,d devices (%,d users x %d) at %s", plan.users() * plan.devicesPerUser(),
                    plan.users(), plan.devicesPerUser(), receiver.origin()));
            List<List<PushRegistration>> users = new ArrayList<>();
            List<PushRegistration> all = new ArrayList<>();
            for (int u = 0; u < plan.users(); u++) {
                List<PushRegistration> devices = new ArrayList<>();
                for (int d = 0; d < plan.devicesPerUser(); d++) {
                    devices.add(receiver.subscribe(vapid.publicKeyBase64Url()));
                }
                users.add(List.copyOf(devices));
                all.addAll(devices);
            }
            String idPrefix = "r" + run + "-";
            int bodyBytes = PushMessages.of(FallbackLoad.record(idPrefix, 0, users, System.currentTimeMillis()), Duration.ofDays(1))
                    .payload().length + ENCRYPTION_OVERHEAD;

            receiver.startTally();
            progress.accept(String.format("baseline: the receiver alone, %d requests in flight, %s", plan.baselineConcurrency(),
                    PushBench.text(plan.baselineDuration())));
            Duration baselineWarm = Duration.ofMillis(Math.min(1000, plan.baselineDuration().toMillis() / 4));
            ReceiverBaseline.Result baseline = ReceiverBaseline.run(receiver, all, vapid, SUBJECT, bodyBytes,
                    plan.baselineConcurrency(), baselineWarm, plan.baselineDuration());
            progress.accept(String.format("baseline: %,.0f pushes/s (mean answer %.1f ms, %d failed)", baseline.pushesPerSecond(),
                    baseline.meanAnswerMs(), baseline.failed()));

            tally = receiver.startTally();
            progress.accept("starting the push sender (child JVM " + SenderProcess.HEAP + ")");
            long launched = System.nanoTime();
            try (SenderProcess sender = SenderProcess.start(bootstrap, prefix, SUBJECT, vapid, plan.senderSettings(),
                    plan.senderJvmOptions(), dir)) {
                sender.awaitReady(Duration.ofSeconds(120));
                sender.awaitAssigned(admin, prefix + plan.group(), plan.partitions(), Duration.ofSeconds(60));
                double startSeconds = (System.nanoTime() - launched) / 1e9;
                progress.accept(String.format("sender ready in %.1f s; offering %,.0f records/s for %s + %s", startSeconds, plan.rate(),
                        PushBench.text(plan.warmup()), PushBench.text(plan.duration())));
                FallbackLoad l = new FallbackLoad(bootstrap, topics.fallback(), plan.rate(), plan.warmup().plus(plan.duration()),
                        users, idPrefix);
                load = l;
                long t0 = System.currentTimeMillis();
                l.start();
                sleepUntil(t0 + plan.warmup().toMillis());
                List<Long> senderPid = List.of(sender.pid());
                List<Long> brokerPids = brokerPid > 0 ? List.of(brokerPid) : List.of();
                List<Long> self = List.of(ProcessHandle.current().pid());
                long from = System.currentTimeMillis();
                ProcessCpu.Ticks senderBefore = ProcessCpu.sample(senderPid);
                ProcessCpu.Ticks brokerBefore = ProcessCpu.sample(brokerPids);
                ProcessCpu.Ticks selfBefore = ProcessCpu.sample(self);
                sleepUntil(from + plan.duration().toMillis());
                long to = System.currentTimeMillis();
                ProcessCpu.Used senderUsed = ProcessCpu.sample(senderPid).since(senderBefore);
                ProcessCpu.Used brokerUsed = ProcessCpu.sample(brokerPids).since(brokerBefore);
                ProcessCpu.Used selfUsed = ProcessCpu.sample(self).since(selfBefore);
                double rss = ProcessMemory.rssBytes(sender.pid()) / 1048576.0;
                if (!sender.isAlive()) {
                    throw new IOException("the push sender exited during the run; see " + sender.logFile());
                }
                l.awaitDone(Duration.ofSeconds(60));
                progress.accept(String.format("load done: %,d records; waiting for their pushes (at most %s)", l.acked(),
                        PushBench.text(plan.drain())));
                awaitPushes(tally, l.acked() * plan.devicesPerUser(), plan.drain());
                PushTally t = PushTally.of(l.dueAt(), idPrefix, plan.users(), plan.devicesPerUser(), tally.arrivals(), from, to);
                double drain = t.lastArrivalAt() > 0 ? Math.max(0, t.lastArrivalAt() - l.stoppedAt()) / 1000.0 : Double.NaN;
                long pushes = t.windowPushes();
                Cpu cpu = new Cpu(senderUsed.processSeconds(), micros(senderUsed.processSeconds(), pushes),
                        micros(senderUsed.jitSeconds(), pushes), brokerPids.isEmpty() ? Double.NaN : micros(brokerUsed.processSeconds(), pushes),
                        micros(selfUsed.processSeconds(), pushes), senderUsed.machineBusyFraction());
                double offeredPushes = t.recordsPerSecond() * plan.devicesPerUser();
                Result r = new Result(run, plan.rate(), offeredPushes, t.pushesPerSecond(),
                        ratio(t.pushesPerSecond(), baseline.pushesPerSecond()), t, cpu, drain, startSeconds, rss, loadAverage,
                        tally.rejected(), baseline);
                progress.accept(String.format("%,.0f pushes/s of %,.0f offered (baseline %,.0f), %.0f µs sender CPU/push, lateness"
                                + " p50 %.0f ms p99 %.0f ms, lost %d, duplicates %d", r.pushesPerSecond(), offeredPushes,
                        baseline.pushesPerSecond(), cpu.senderMicrosPerPush(), t.latenessP50Ms(), t.latenessP99Ms(), t.lost(),
                        t.duplicates()));
                return r;
            }
        } finally {
            load = null;
            tally = null;
        }
    }

    /** Waits until {@code expected} pushes arrived, at most {@code bound}, giving up early when none arrives for {@link #STALL}. */
    private static void awaitPushes(LatencyPushService.Tally tally, long expected, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        long seen = tally.accepted();
        long lastProgress = System.nanoTime();
        while (tally.accepted() < expected && System.nanoTime() - deadline < 0 && System.nanoTime() - lastProgress < STALL.toNanos()) {
            TimeUnit.MILLISECONDS.sleep(50); // poll interval of a bounded wait
            long now = tally.accepted();
            if (now > seen) {
                seen = now;
                lastProgress = System.nanoTime();
            }
        }
        TimeUnit.MILLISECONDS.sleep(500); // a repeat sent right after the last push shows too
    }

    private static void sleepUntil(long epochMillis) throws InterruptedException {
        long left = epochMillis - System.currentTimeMillis();
        if (left > 0) {
            TimeUnit.MILLISECONDS.sleep(left);
        }
    }

    private static double micros(double seconds, long pushes) {
        return pushes > 0 ? seconds * 1e6 / pushes : Double.NaN;
    }

    private static double ratio(double value, double base) {
        return io.notify.cli.bench.report.Stats.ratio(value, base);
    }
}
