package io.notify.cli.bench;

import io.notify.cli.bench.report.ProgressBar;
import io.notify.cli.bench.report.ResultFiles;
import io.notify.cli.bench.report.ResultOptions;
import io.notify.cli.bench.report.RunsOptions;
import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.fanout.FanoutConfig;
import io.notify.platform.DevKeys;
import io.notify.platform.PlatformStack;
import io.notify.protocol.event.Digest;
import io.notify.protocol.event.Fallback;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code notifyctl bench fallback}: the offline fallback timer's precision and cost with
 * {@code --pending} fallbacks pending at once. Broker, Redis and one fanout-streams instance
 * (exactly_once_v2) run as child processes, as in {@code bench fanout}. Each run has the modes of
 * {@code --modes}, in that order and each on fresh topics; by default two: the backlog without
 * fallbacks (the baseline: routed events/s), then the same backlog with
 * {@code "fallback":{"after":…}} (routed events/s: the cost of scheduling; then every fallback waited
 * for and read back from {@code notify.fallback}: lateness, drain, pending peak, CPU and RSS of the
 * instance). The {@code quiet} and {@code digest} modes (issue 41, {@link FallbackRules}) check that
 * quiet hours hold every fallback to the window's end and that a burst with one digest key is one
 * record per user. Every wait is bounded; children are stopped even when a run fails.
 */
@Command(name = "fallback", mixinStandardHelpOptions = true,
        description = "Offline fallback timer: lateness, drain rate and cost with N fallbacks pending at once, vs the same events"
                + " without; optionally quiet hours and digests (--modes).")
public final class FallbackBench implements Callable<Integer> {

    private static final List<String> MODES = List.of(FallbackRun.BASELINE, FallbackRun.FALLBACK, FallbackRules.QUIET,
            FallbackRules.DIGEST);

    @Option(names = "--modes", split = ",", description = "The modes of each run, in the order given, each on fresh topics:"
            + " baseline (--pending events without a fallback: routed events/s), fallback (the same with one: the cost of"
            + " scheduling, then every fallback's lateness), quiet (quiet hours: every user of --users has quiet hours ending"
            + " at a whole minute --quiet-ends-in or up to 60 s more ahead; --pending events with a fallback due inside them;"
            + " each must be written once, not before the window's end), digest (--digest-events events to each of --users"
            + " users with one digest key: one record per user counting them all) (default: ${DEFAULT-VALUE}).",
            defaultValue = "baseline,fallback")
    List<String> modes;

    @Option(names = "--pending", description = "Events per mode and run of the baseline, fallback and quiet modes, each asking"
            + " for a fallback in the last two (default: ${DEFAULT-VALUE}).", defaultValue = "100000")
    long pending;

    @Option(names = "--users", description = "Users, none connected; event i goes to user i mod --users (default: ${DEFAULT-VALUE}).",
            defaultValue = "100000")
    int users;

    @Option(names = "--after", description = "The events' fallback.after, 10s..7d in whole s/m/h/d; must exceed the time to"
            + " sequence them all, which the report checks (default: ${DEFAULT-VALUE}).", defaultValue = "60s")
    String after;

    @Option(names = "--event-bytes", description = "Serialized event size (default: ${DEFAULT-VALUE}).", defaultValue = "300")
    int eventBytes;

    @Option(names = "--check-interval", description = "notify.fanout.fallback.check-interval (default: the app's).")
    String checkInterval;

    @Option(names = "--commit-interval", description = "notify.fanout.commit-interval (default: the app's).")
    String commitInterval;

    @Option(names = "--deadline", description = "Bound of each pre-produce and routing phase, and of the wait past --after for"
            + " the fallbacks (default: ${DEFAULT-VALUE}).", defaultValue = "10m")
    String deadline;

    @Option(names = "--devices", description = "Devices (Java SDK clients, half WebSocket, half SSE) that receive events with a"
            + " fallback while their gateway is killed, once after the runs: fallbacks for events a device received are counted"
            + " (goal 0); 0 skips the phase (default: ${DEFAULT-VALUE}).", defaultValue = "100")
    int devices;

    @Option(names = "--devices-events", description = "Events per device in the devices phase (default: ${DEFAULT-VALUE}).",
            defaultValue = "5")
    int devicesEvents;

    @Option(names = "--devices-after", description = "The devices phase's fallback.after: longer than a reconnect and the"
            + " gateways' 5 s receipt batch (default: ${DEFAULT-VALUE}).", defaultValue = "20s")
    String devicesAfter;

    @Option(names = "--quiet-ends-in", description = "The quiet mode's window ends at the first whole minute of --quiet-zone at"
            + " least this long after it is chosen (just before publishing), so this to 60 s more; 20s..1h"
            + " (default: ${DEFAULT-VALUE}).", defaultValue = "40s")
    String quietEndsIn;

    @Option(names = "--quiet-zone", description = "The quiet hours' IANA time zone (default: ${DEFAULT-VALUE}, UTC+05:45:"
            + " local minutes that are not UTC's hours).", defaultValue = "Asia/Kathmandu")
    String quietZone;

    @Option(names = "--quiet-after", description = "The quiet mode's fallback.after: each must fall due inside the window"
            + " (default: ${DEFAULT-VALUE}).", defaultValue = "10s")
    String quietAfter;

    @Option(names = "--digest-events", description = "Events per user in the digest mode, all with one digest key"
            + " (default: ${DEFAULT-VALUE}).", defaultValue = "10")
    int digestEvents;

    @Option(names = "--digest-window", description = "The digest mode's digest.window, 10s..1d: publishing them all must take"
            + " less (default: ${DEFAULT-VALUE}).", defaultValue = "30s")
    String digestWindow;

    @Option(names = "--digest-after", description = "The digest mode's fallback.after; a digest falls due at the later of it"
            + " and the window (default: ${DEFAULT-VALUE}).", defaultValue = "10s")
    String digestAfter;

    @Mixin
    RunsOptions runOptions;

    @Mixin
    ResultOptions resultOptions;

    private ProgressBar bar;
    private volatile String status = "";

    @Override
    public Integer call() throws Exception {
        if (pending < 1 || users < 1 || runOptions.runs() < 1 || digestEvents < 1) {
            System.err.println("--pending, --users, --runs and --digest-events must be at least 1");
            return 2;
        }
        if (modes.isEmpty() || !MODES.containsAll(modes) || modes.stream().distinct().count() < modes.size()) {
            System.err.println("bench fallback: --modes must name each of " + String.join(", ", MODES) + " at most once, got " + modes);
            return 2;
        }
        FallbackRun.Plan plan;
        FallbackRules.Plan rulesPlan;
        FanoutConfig app;
        Fallback devicesFallback;
        try {
            devicesFallback = new Fallback(devicesAfter, "push");
            Fallback fallback = new Fallback(after, "push");
            new FanoutEvents(eventBytes, 1, fallback); // checks --event-bytes
            List<String> settings = checkInterval == null ? List.of()
                    : List.of("notify.fanout.fallback.check-interval=" + checkInterval);
            app = effective(settings, commitInterval);
            plan = new FallbackRun.Plan(pending, users, eventBytes, fallback,
                    commitInterval == null ? null : Settings.parseDurationArg("--commit-interval", commitInterval), settings,
                    Settings.parseDurationArg("--deadline", deadline));
            rulesPlan = new FallbackRules.Plan(users, pending, new Fallback(quietAfter, "push"),
                    Settings.parseDurationArg("--quiet-ends-in", quietEndsIn), ZoneId.of(quietZone), digestEvents,
                    new Fallback(digestAfter, "push"), new Digest(FallbackRules.DIGEST_KEY, digestWindow), plan.commitInterval(),
                    settings, plan.deadline());
            QuietWindow.of(Instant.now(), rulesPlan.quietEndsIn(), rulesPlan.quietZone()); // checks --quiet-ends-in
            if (rulesPlan.quietFallback().delay().compareTo(rulesPlan.quietEndsIn()) >= 0) {
                throw new IllegalArgumentException("--quiet-after must be shorter than --quiet-ends-in");
            }
        } catch (IllegalArgumentException | ConfigException | DateTimeException e) {
            System.err.println("bench fallback: " + e.getMessage());
            return 2;
        }
        double loadAtStart = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        Path work = Files.createTempDirectory("notify-bench-fallback-");
        String base = "bfb" + Long.toString(System.currentTimeMillis(), 36) + "-";
        List<FallbackRun.Result> results = new ArrayList<>();
        List<FallbackRules.Result> rules = new ArrayList<>();
        PlatformStack.quietBrokerStartup();
        int steps = runOptions.runs() * modes.size();
        bar = ProgressBar.start().track(() -> (double) (results.size() + rules.size()) / steps, () -> status);
        progress("bench fallback: broker and Redis starting (child processes); work dir " + work);
        try (FanoutBackends backends = FanoutBackends.start()) {
            for (int r = 1; r <= runOptions.runs(); r++) {
                for (String mode : modes) {
                    String label = "run " + r + "/" + runOptions.runs() + " " + mode + ": ";
                    if (mode.equals(FallbackRules.QUIET) || mode.equals(FallbackRules.DIGEST)) {
                        rules.add(new FallbackRules(backends, s -> progress(label + s)).run(rulesPlan, mode,
                                base + "r" + r + "-" + mode + ".", r, work.resolve("r" + r + "-" + mode)));
                        continue;
                    }
                    FallbackRun run = new FallbackRun(backends, s -> progress(label + s));
                    results.add(run.run(plan, mode, base + "r" + r + "-" + mode + ".", r, work.resolve("r" + r + "-" + mode)));
                    FallbackRun.Result last = results.get(results.size() - 1);
                    if (mode.equals(FallbackRun.BASELINE) && last.routingSeconds() * 2 >= plan.fallback().delay().toSeconds()) {
                        progress(String.format("%swarning: routing took %.1f s; --after %s leaves little room for every fallback"
                                + " to be pending at once", label, last.routingSeconds(), after));
                    }
                }
            }
        } catch (Exception e) {
            bar.close();
            System.err.println("bench fallback failed: " + e + "\n  logs kept in " + work);
            return 1;
        }
        FallbackDevices.Result onDevices = null;
        if (devices > 0) {
            try {
                onDevices = FallbackDevices.run(work.resolve("devices"), devices, devicesEvents, devicesFallback,
                        plan.deadline(), s -> progress("devices: " + s));
            } catch (Exception e) {
                bar.close();
                System.err.println("bench fallback failed in the devices phase: " + e + "\n  logs kept in " + work);
                return 1;
            }
        }
        bar.close();
        FallbackReport report = FallbackReport.of(settings(plan, app, loadAtStart), results, rules, onDevices);
        report.print(System.out);
        System.err.println("wrote " + ResultFiles.write(resultOptions.out(), "fallback", report.at(), report, report.charts()));
        ResultFiles.deleteTree(work);
        boolean devicesOk = onDevices == null || onDevices.firedForReceived() == 0 && onDevices.duplicates() == 0
                && onDevices.firedForOffline() == onDevices.offlineEvents();
        boolean fallbacksOk = report.fallbacks() == null || report.fallbacks().missing() == 0 && report.fallbacks().duplicates() == 0;
        return fallbacksOk && (report.rules() == null || report.rules().ok()) && devicesOk ? 0 : 1;
    }

    /** The instance's configuration as it will read it: validates the settings here and names what is in force. */
    private static FanoutConfig effective(List<String> settings, String commitInterval) {
        Map<String, String> values = new HashMap<>();
        values.put(FanoutConfig.QUERY_TOKENS, DevKeys.random().queryToken());
        values.put("notify.fanout.processing-guarantee", FallbackRun.GUARANTEE);
        if (commitInterval != null) {
            values.put("notify.fanout.commit-interval", commitInterval);
        }
        for (String s : settings) {
            values.put(s.substring(0, s.indexOf('=')), s.substring(s.indexOf('=') + 1));
        }
        return FanoutConfig.load(Settings.of(values));
    }

    private Map<String, Object> settings(FallbackRun.Plan plan, FanoutConfig app, double loadAtStart) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("pending", pending);
        s.put("users", users);
        s.put("eventsPerUser", (pending + users - 1) / users);
        s.put("eventBytes", eventBytes);
        s.put("after", plan.fallback().after());
        s.put("channel", plan.fallback().channel());
        s.put("checkInterval", app.fallback().checkInterval().toMillis() + "ms" + (checkInterval == null ? " (app default)" : ""));
        s.put("maxPerRunPerTask", app.fallback().maxPerRun());
        s.put("maxPendingPerTask", app.fallback().maxPending());
        s.put("commitInterval", app.commitInterval().toMillis() + "ms" + (commitInterval == null ? " (app default)" : ""));
        s.put("guarantee", FallbackRun.GUARANTEE);
        s.put("instances", 1);
        s.put("eventsPartitions", 6);
        s.put("runs", runOptions.runs());
        s.put("fanoutJvm", "-Xmx512m, 1 stream thread, defaults otherwise");
        s.put("loadAverageAtStart", loadAtStart);
        s.put("routedMeasure", "notify_fanout_deliveries_total + notify_fanout_undelivered_total from /metrics, "
                + "first progress sample to all routed, polled every 100 ms (as bench fanout)");
        s.put("latenessMeasure", "at - dueAt of every notify.fallback record, read_committed");
        s.put("deadline", plan.deadline().toString());
        s.put("modes", modes);
        if (modes.contains(FallbackRules.QUIET)) {
            s.put("quietEndsIn", quietEndsIn + " (to the next whole minute)");
            s.put("quietZone", quietZone);
            s.put("quietAfter", quietAfter);
        }
        if (modes.contains(FallbackRules.DIGEST)) {
            s.put("digestEvents", digestEvents);
            s.put("digestWindow", digestWindow);
            s.put("digestAfter", digestAfter);
            s.put("digestKey", FallbackRules.DIGEST_KEY);
        }
        return s;
    }

    private void progress(String line) {
        status = line;
        bar.println(line);
    }
}
