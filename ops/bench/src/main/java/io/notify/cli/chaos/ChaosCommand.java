package io.notify.cli.chaos;

import io.notify.cli.bench.report.ResultFiles;
import io.notify.cli.bench.report.ResultOptions;
import io.notify.common.config.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code notifyctl chaos <scenario>}: runs the platform as separate processes (broker, Redis, two
 * fanout-streams instances, three gateways, a load agent with real SDK clients), injects the
 * scenario's faults under steady load and judges every event: lost, duplicated, out of order or
 * skipped by any device is a failure (exit 1). Prints a verdict table, writes JSON.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true,
        description = "Fault injection under load with a zero-loss verdict: kill-gateway, pause-gateway, kill-router, "
                + "restart-broker, restart-redis, rolling-restart, or all.")
public final class ChaosCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "SCENARIO", converter = ScenarioName.class,
            description = "kill-gateway | pause-gateway | kill-router | restart-broker | restart-redis | rolling-restart | all")
    String scenario;

    @Option(names = "--quick", description = "Bounded quick mode: 2 faults 1–3 s apart, 5 s watch windows, short registry timings (each scenario well under 5 min).")
    boolean quick;

    @Option(names = "--faults", description = "Faults per scenario (default: kill-gateway 20, others 3; --quick 2).", defaultValue = "0")
    int faults;

    @Option(names = "--users", description = "Users (default: ${DEFAULT-VALUE}).", defaultValue = "50")
    int users;

    @Option(names = "--devices", description = "Connected devices per user, each a real SDK client (default: ${DEFAULT-VALUE}).",
            defaultValue = "2")
    int devices;

    @Option(names = "--rooms", description = "Rooms the devices subscribe to, one each (device d: room d %% rooms); "
            + "room events are published round-robin with the user events and judged per (device, room, seq); "
            + "0 = user streams only (default: ${DEFAULT-VALUE}).", defaultValue = "4")
    int rooms;

    @Option(names = "--rate", description = "Events/s published during the run (default: ${DEFAULT-VALUE}).", defaultValue = "100")
    double rate;

    @Option(names = "--seed", description = "Seed of the fault schedule (default: the clock).")
    Long seed;

    @Option(names = "--fanouts", description = "fanout-streams instances (default: ${DEFAULT-VALUE}).", defaultValue = "2")
    int fanouts;

    @Option(names = "--gateways", description = "Gateway nodes (default: ${DEFAULT-VALUE}).", defaultValue = "3")
    int gateways;

    @Option(names = "--redis-cluster", description = "The registry on a 3-master Redis Cluster (each master with a replica) "
            + "instead of one Redis; not with restart-redis.")
    boolean redisCluster;

    @Option(names = "--fanout-setting", paramLabel = "KEY=VALUE", description = "A setting for every fanout-streams instance, "
            + "over the stack's own (repeatable; e.g. notify.fanout.standby-replicas=1).")
    Map<String, String> fanoutSettings = new LinkedHashMap<>();

    @Option(names = "--watch", description = "How long deliveries are watched after a router or infrastructure fault and "
            + "again after the restart (default: 20s, --quick 5s); a longer one sees what moves later, e.g. fanout tasks "
            + "that move back to a rejoined instance only after a probing rebalance.")
    String watch;

    @Option(names = "--expire-every", paramLabel = "N", description = "One event in N is published with the short ttl of "
            + "--expire-ttl, so some expire while a fault cuts their devices off: such an event is neither lost nor expected "
            + "(it may arrive before its expiry or not, never twice or out of order; a device catching up past it gets its "
            + "seq as collapsed); 0 = none (default: ${DEFAULT-VALUE}).", defaultValue = "20")
    int expireEvery;

    @Option(names = "--expire-ttl", description = "The ttl of those events, whole seconds (default: ${DEFAULT-VALUE}).",
            defaultValue = "2s")
    String expireTtl;

    @Option(names = "--recall-every", paramLabel = "N", description = "One event in N is recalled by the producer "
            + "--recall-after its acknowledgment (a recall record on notify.events, as a direct producer writes it): such an "
            + "event is neither lost nor expected (it may arrive before the recall or not, never twice, out of order or after "
            + "the device got its recalled frame or collapsed seq); 0 = none (default: ${DEFAULT-VALUE}).", defaultValue = "25")
    int recallEvery;

    @Option(names = "--recall-after", description = "How long after an event's acknowledgment it is recalled "
            + "(default: ${DEFAULT-VALUE}).", defaultValue = "300ms")
    String recallAfter;

    @Mixin
    ResultOptions resultOptions;

    @Override
    public Integer call() throws Exception {
        List<Scenario> scenarios = Scenario.parse(scenario); // checked when parsed (ScenarioName)
        if (users < 1 || devices < 1 || users * devices > 2000 || rate <= 0 || rate > 5000 || faults < 0
                || rooms < 0 || rooms > users * devices || fanouts < 2 || fanouts > 6 || gateways < 2 || gateways > 8) {
            System.err.println("notifyctl chaos: --users and --devices >= 1 with at most 2000 clients in all; "
                    + "0 < --rate <= 5000; --faults >= 0; 0 <= --rooms <= clients; 2 <= --fanouts <= 6; 2 <= --gateways <= 8");
            return 2;
        }
        ChaosOptions o = ChaosOptions.of(scenarios, quick, faults, users, devices, rooms, rate);
        try {
            if (watch != null) {
                o = o.watching(Settings.parseDurationArg("--watch", watch));
            }
            o = o.withholding(new Withheld.Shares(expireEvery, Settings.parseDurationArg("--expire-ttl", expireTtl),
                    recallEvery, Settings.parseDurationArg("--recall-after", recallAfter)));
        } catch (RuntimeException e) { // a malformed duration (ConfigException) or one out of range
            System.err.println("notifyctl chaos: " + e.getMessage());
            return 2;
        }
        long s = seed != null ? seed : System.currentTimeMillis();
        Path work = Files.createTempDirectory("notify-chaos-");
        Instant at = Instant.now();
        System.err.println("chaos " + scenario + (quick ? " (quick)" : "") + ": seed " + s + ", work dir " + work);
        long begin = System.nanoTime();
        List<ChaosRun.ScenarioResult> results = ChaosRun.run(o, work, s, new ChaosRun.Shape(fanouts, gateways, redisCluster, fanoutSettings), line ->
                System.err.printf("  [%6.1fs] %s%n", (System.nanoTime() - begin) / 1e9, line));
        ChaosReport report = ChaosReport.of(o, s, at, results);
        System.out.print(report.table());
        ResultFiles.Written file = report.write(resultOptions.out(), scenario);
        boolean passed = results.stream().allMatch(ChaosRun.ScenarioResult::passed);
        System.out.println("results: " + file + (passed ? "" : "   (logs kept in " + work + ")"));
        if (passed) {
            ResultFiles.deleteTree(work);
        }
        return passed ? 0 : 1;
    }

    /** Refuses an unknown scenario while the command line is parsed: a usage error (exit 2), with --help too. */
    static final class ScenarioName implements CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            Scenario.parse(value); // its message names the scenarios there are
            return value;
        }
    }
}
