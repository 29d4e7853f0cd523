package io.notify.cli.bench.push;

import io.notify.cli.bench.report.ProgressBar;
import io.notify.cli.bench.report.ResultFiles;
import io.notify.cli.bench.report.ResultOptions;
import io.notify.cli.bench.report.RunsOptions;
import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.devstack.BrokerOptions;
import io.notify.devstack.KafkaBrokerProcess;
import io.notify.platform.PlatformStack;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.PushConfig;
import io.notify.push.webpush.VapidKeys;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code notifyctl bench push}: pushes/s one push sender gets out to a push service that answers
 * each push after {@code --latency}, its CPU per push, and how late a push reaches the push service
 * after its fallback came due. A broker runs as a child process, and in each run (a fresh topic
 * prefix) the sender ({@code PushMain}) in a child JVM of its own, so its CPU is read from
 * {@code /proc/<pid>/stat} alone; the push service is {@link LatencyPushService} in this JVM (Web
 * Push, answers scheduled on its I/O threads' timers); the load is fallback records produced to
 * {@code notify.fallback} at {@code --rate}, one user each, carrying the user's
 * {@code --devices-per-user} registrations. Each run first measures the receiver alone at the same
 * latency with a plain HTTP client ({@link ReceiverBaseline}): a reader sees the sender's limit
 * apart from the receiver's. Every wait is bounded; children are stopped even when a run fails.
 */
@Command(name = "push", mixinStandardHelpOptions = true,
        description = "Push sender: pushes/s to a Web Push service with injected latency, CPU per push and lateness after the"
                + " fallback came due, vs the push service alone in the same run.")
public final class PushBench implements Callable<Integer> {

    /** The registrations a user holds at most: fanout-streams' default {@code notify.fanout.push.max-registrations}. */
    static final int MAX_DEVICES_PER_USER = 10;

    @Option(names = "--rate", description = "Fallback records offered per second, each for one user (default: ${DEFAULT-VALUE}).",
            defaultValue = "2000")
    double rate;

    @Option(names = "--users", description = "Users; record i goes to user i mod --users (default: ${DEFAULT-VALUE}).",
            defaultValue = "1000")
    int users;

    @Option(names = "--devices-per-user", description = "Web Push registrations per user: pushes per record (default: ${DEFAULT-VALUE}).",
            defaultValue = "1")
    int devicesPerUser;

    @Option(names = "--duration", description = "Measured time per run, after the warm-up (default: ${DEFAULT-VALUE}).",
            defaultValue = "30s")
    String duration;

    @Option(names = "--warmup", description = "Unmeasured load at --rate before the measured time (default: ${DEFAULT-VALUE}).",
            defaultValue = "10s")
    String warmup;

    @Option(names = "--latency", description = "The push service's answer delay, per push (default: ${DEFAULT-VALUE}).",
            defaultValue = "50ms")
    String latency;

    @Option(names = "--max-in-flight", description = "notify.push.max-in-flight of the sender (default: the app's).")
    Integer maxInFlight;

    @Option(names = "--provider", description = "The push provider measured: webpush (default: ${DEFAULT-VALUE}).",
            defaultValue = "webpush")
    String provider;

    @Option(names = "--partitions", description = "Partitions of notify.fallback (default: ${DEFAULT-VALUE}, as notifyctl dev).",
            defaultValue = "6")
    int partitions;

    @Option(names = "--drain", description = "Bound on waiting for the pushes after the load ends, for a sender that fell behind;"
            + " the wait also ends when none arrived for 15 s; later ones count as lost (default: ${DEFAULT-VALUE}).",
            defaultValue = "5m")
    String drain;

    @Option(names = "--p99-bound", description = "A run counts as sustained only with lateness p99 up to this (default: ${DEFAULT-VALUE}).",
            defaultValue = "1s")
    String p99Bound;

    @Option(names = "--baseline-concurrency", description = "Requests in flight of the same-run baseline, the receiver alone"
            + " (default: ${DEFAULT-VALUE}).", defaultValue = "256")
    int baselineConcurrency;

    @Option(names = "--baseline-duration", description = "Time of the same-run baseline (default: ${DEFAULT-VALUE}).",
            defaultValue = "5s")
    String baselineDuration;

    @Option(names = "--sender-setting", paramLabel = "KEY=VALUE", description = "A notify.push.* setting for the sender, e.g."
            + " notify.push.request-timeout=5s; repeatable; applied over the bench's own.")
    List<String> senderSetting = new ArrayList<>();

    @Option(names = "--sender-jvm-option", paramLabel = "OPTION", description = "An option of the sender's JVM (after its "
            + SenderProcess.HEAP + "), e.g. -XX:+UseParallelGC; repeatable.")
    List<String> senderJvmOptions = new ArrayList<>();

    @Mixin
    RunsOptions runOptions;

    @Mixin
    ResultOptions resultOptions;

    private ProgressBar bar;
    private volatile String status = "";

    @Override
    public Integer call() throws Exception {
        if (!(rate > 0) || users < 1 || devicesPerUser < 1 || devicesPerUser > MAX_DEVICES_PER_USER || partitions < 1
                || baselineConcurrency < 1 || runOptions.runs() < 1) {
            System.err.println("--rate > 0; --users, --partitions, --baseline-concurrency and --runs >= 1; --devices-per-user 1.."
                    + MAX_DEVICES_PER_USER + " (what a user holds at most, notify.fanout.push.max-registrations)");
            return 2;
        }
        if (!provider.equals(PushRegistration.WEBPUSH)) {
            System.err.println("bench push: --provider " + provider + " is not measured yet; webpush is");
            return 2;
        }
        PushRun.Plan plan;
        PushConfig app;
        double p99BoundMs;
        try {
            Duration measure = Settings.parseDurationArg("--duration", duration);
            Duration warm = Settings.parseDurationArg("--warmup", warmup);
            Duration answer = Settings.parseDurationArg("--latency", latency);
            Duration drainBound = Settings.parseDurationArg("--drain", drain);
            Duration base = Settings.parseDurationArg("--baseline-duration", baselineDuration);
            p99BoundMs = Settings.parseDurationArg("--p99-bound", p99Bound).toMillis();
            if (measure.toMillis() < 1000 || base.toMillis() < 1000) {
                throw new IllegalArgumentException("--duration and --baseline-duration must be at least 1s");
            }
            if (rate * (measure.toMillis() + warm.toMillis()) / 1000 > Integer.MAX_VALUE - 1) {
                throw new IllegalArgumentException("--rate x (--warmup + --duration) is too many records");
            }
            Map<String, String> extra = senderSettings();
            app = effective(extra);
            plan = new PushRun.Plan(rate, users, devicesPerUser, warm, measure, answer, drainBound, partitions, extra,
                    List.copyOf(senderJvmOptions), app.groupId(), baselineConcurrency, base);
        } catch (IllegalArgumentException | ConfigException e) {
            System.err.println("bench push: " + e.getMessage());
            return 2;
        }
        double loadAtStart = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        Path work = Files.createTempDirectory("notify-bench-push-");
        String base = "bpu" + Long.toString(System.currentTimeMillis(), 36) + "-";
        List<PushRun.Result> results = new ArrayList<>();
        VapidKeys vapid = VapidKeys.generate();
        PlatformStack.quietBrokerStartup();
        bar = ProgressBar.start().track(() -> (double) results.size() / runOptions.runs(), () -> status);
        progress("bench push: broker starting (child process); work dir " + work);
        // server JVM flags, as the platform kit's: the broker is not what a benchmark measures
        try (KafkaBrokerProcess broker = new KafkaBrokerProcess(BrokerOptions.defaults(), KafkaBrokerProcess.SERVER_JVM_OPTIONS,
                System.getProperty("java.class.path")).start();
             Admin admin = Admin.create(Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            for (int r = 1; r <= runOptions.runs(); r++) {
                String label = "run " + r + "/" + runOptions.runs() + ": ";
                PushRun run = new PushRun(broker.bootstrapServers(), admin, broker.pid(), s -> progress(label + s));
                bar.track(() -> (double) results.size() / runOptions.runs(), () -> run.status().isEmpty() ? status : label + run.status());
                results.add(run.run(plan, r, base + "r" + r + ".", vapid, work.resolve("r" + r)));
            }
        } catch (Exception e) {
            bar.close();
            System.err.println("bench push failed: " + e + "\n  logs kept in " + work);
            return 1;
        }
        bar.close();
        PushReport report = PushReport.of(settings(plan, app, loadAtStart), results, p99BoundMs, plan.latency().toMillis());
        report.print(System.out);
        System.err.println("wrote " + ResultFiles.write(resultOptions.out(), "push", report.at(), report, report.charts()));
        ResultFiles.deleteTree(work);
        PushReport.Totals t = report.totals();
        return t.lost() == 0 && t.duplicates() == 0 && t.misdelivered() == 0 && t.rejected() == 0 ? 0 : 1;
    }

    /** {@code --max-in-flight} and every {@code --sender-setting}, in that order (a setting given both ways: the latter wins). */
    private Map<String, String> senderSettings() {
        Map<String, String> extra = new LinkedHashMap<>();
        if (maxInFlight != null) {
            extra.put("notify.push.max-in-flight", Integer.toString(maxInFlight));
        }
        for (String s : senderSetting) {
            int eq = s.indexOf('=');
            if (eq < 1 || !s.startsWith("notify.")) {
                throw new IllegalArgumentException("--sender-setting wants KEY=VALUE with a notify.* key, got '" + s + "'");
            }
            extra.put(s.substring(0, eq), s.substring(eq + 1));
        }
        return extra;
    }

    /** The sender's configuration as it will read it: validates the settings here and names what is in force. */
    static PushConfig effective(Map<String, String> extra) {
        VapidKeys keys = VapidKeys.generate();
        Map<String, String> values = new HashMap<>(SenderProcess.settings("127.0.0.1:9092", "bench.", PushRun.SUBJECT,
                keys.publicKeyBase64Url(), 0, extra));
        values.put("notify.push.webpush.vapid-private-key", keys.privateKeyBase64Url());
        return PushConfig.load(Settings.of(values));
    }

    private Map<String, Object> settings(PushRun.Plan plan, PushConfig app, double loadAtStart) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("rate", rate);
        s.put("users", users);
        s.put("devicesPerUser", devicesPerUser);
        s.put("offeredPushesPerSecond", rate * devicesPerUser);
        s.put("provider", provider);
        s.put("latency", text(plan.latency()));
        s.put("maxInFlight", app.maxInFlight() + (maxInFlight == null && !plan.senderSettings().containsKey("notify.push.max-in-flight")
                ? " (app default)" : ""));
        s.put("inFlightCeiling", plan.latency().isZero() ? "-"
                : String.format("%,.0f", app.maxInFlight() * 1000.0 / plan.latency().toMillis()));
        s.put("partitions", partitions);
        s.put("warmup", text(plan.warmup()));
        s.put("duration", text(plan.duration()));
        s.put("drain", text(plan.drain()));
        s.put("runs", runOptions.runs());
        s.put("senderSettings", plan.senderSettings());
        s.put("deviceRatePerMinute", app.deviceRatePerMinute() + " (set so that it never binds)");
        s.put("senderJvm", String.join(" ", SenderProcess.HEAP, String.join(" ", plan.senderJvmOptions())).strip()
                + ", defaults otherwise; one instance, a fresh JVM, topics and group per run");
        s.put("broker", "child JVM (devstack KafkaBrokerProcess, server JVM options), one for all runs");
        s.put("baselineConcurrency", baselineConcurrency);
        s.put("baselineDuration", text(plan.baselineDuration()));
        s.put("baselineMeasure", "plain HTTP/1.1 client (a thread and a keep-alive connection per request in flight) posting"
                + " what the sender would to the same receiver: 201s per second after the first second");
        s.put("pushesMeasure", "pushes the receiver accepted (201) within the window after --warmup, per second");
        s.put("latenessMeasure", "arrival at the receiver (epoch ms) - the record's dueAt (= when it was produced), first arrival"
                + " per (event, device), records due within the window");
        s.put("cpuMeasure", "/proc/<pid>/stat utime+stime over the window / pushes received in it");
        s.put("loadAverageAtStart", loadAtStart);
        return s;
    }

    /** A duration as the options take it: {@code 30s}, {@code 50ms}. */
    static String text(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    private void progress(String line) {
        status = line;
        bar.println(line);
    }
}
