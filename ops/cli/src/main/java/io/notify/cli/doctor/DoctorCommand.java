package io.notify.cli.doctor;

import io.notify.cli.replay.ConnectionOptions;
import io.notify.cli.replay.UsageException;
import io.notify.common.config.ConfigException;
import io.notify.common.config.PlatformSettings;
import io.notify.common.config.Settings;
import io.notify.registry.lease.NodeRegistryConfig;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code notifyctl doctor}: checks a running deployment (docs/doctor.md) and prints one line per
 * finding, {@code OK}, {@code WARN} or {@code FAIL}, each problem with its fix. Exit code 0 when every
 * finding is OK, 1 when there are warnings and no failure, 2 when a check failed (or on bad usage,
 * which prints {@code notifyctl: ...} and checks nothing).
 */
@Command(name = "doctor", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Check a running deployment: topics, Redis, gateway liveness, consumer lag, clock skew.",
                "Prints OK, WARN or FAIL per finding with its fix; exit 0 all OK, 1 warnings only, 2 a failure (docs/doctor.md)."})
public final class DoctorCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--config", paramLabel = "FILE",
            description = "The deployment's settings file (as the services take it): notify.redis.uri, notify.redis.cluster, "
                    + "notify.registry.*, notify.gateway.node-topic-partitions, notify.fanout.application-id, notify.fanout.stream-partitions.")
    Path config;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "One such setting (repeatable; secrets only from --config or the environment).")
    Map<String, String> set = new LinkedHashMap<>();

    @Option(names = "--checks", paramLabel = "LIST", split = ",", defaultValue = "topics,redis,liveness,lag,clock",
            description = "Which checks to run (default: ${DEFAULT-VALUE}).")
    List<String> checks;

    @Option(names = "--replication", paramLabel = "N", defaultValue = "3",
            description = "The replication factor topics should have; fewer is a warning (default: ${DEFAULT-VALUE}; 1 for a single-broker dev cluster).")
    int replication;

    @Option(names = "--lag-warn", paramLabel = "RECORDS", defaultValue = "10000", description = "Warn above this lag of fanout-streams (default: ${DEFAULT-VALUE}).")
    long lagWarn;

    @Option(names = "--lag-fail", paramLabel = "RECORDS", defaultValue = "100000", description = "Fail above this lag (default: ${DEFAULT-VALUE}).")
    long lagFail;

    @Option(names = "--skew-warn", paramLabel = "DURATION", defaultValue = "500ms", description = "Warn above this clock skew (default: ${DEFAULT-VALUE}).")
    String skewWarn;

    @Option(names = "--skew-fail", paramLabel = "DURATION", defaultValue = "2s", description = "Fail above this clock skew (default: ${DEFAULT-VALUE}).")
    String skewFail;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        DoctorOptions options;
        try {
            options = options();
        } catch (UsageException e) {
            err.println("notifyctl: " + e.getMessage());
            err.flush();
            return 2;
        }
        List<Finding> findings = new Doctor(options).run();
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        findings.forEach(f -> out.println(f.text()));
        out.flush();
        long fail = findings.stream().filter(f -> f.level() == Finding.Level.FAIL).count();
        long warn = findings.stream().filter(f -> f.level() == Finding.Level.WARN).count();
        err.println(String.format(Locale.ROOT, "doctor: %d FAIL, %d WARN, %d OK", fail, warn, findings.size() - fail - warn));
        err.flush();
        return Doctor.exitCode(findings);
    }

    private DoctorOptions options() {
        ConnectionOptions.Connection c = connection.connection();
        for (String check : checks) {
            if (!Doctor.CHECKS.contains(check)) {
                throw new UsageException("--checks: unknown check '" + check + "'; the checks are " + String.join(",", Doctor.CHECKS));
            }
        }
        if (replication < 1 || lagWarn < 0 || lagFail < lagWarn) {
            throw new UsageException("--replication must be at least 1, and 0 <= --lag-warn <= --lag-fail");
        }
        Duration warn;
        Duration fail;
        try {
            warn = Settings.parseDurationArg("--skew-warn", skewWarn);
            fail = Settings.parseDurationArg("--skew-fail", skewFail);
            List<String> args = new ArrayList<>();
            if (config != null) {
                args.add("--config=" + config);
            }
            set.forEach((k, v) -> args.add(k + "=" + v));
            Settings s = Settings.fromArgs(args.toArray(String[]::new));
            NodeRegistryConfig registry = NodeRegistryConfig.load(s);
            if (fail.compareTo(warn) < 0) {
                throw new UsageException("--skew-fail must not be below --skew-warn");
            }
            // the services' own defaults (docs/config): FanoutConfig's application id and stream partitions, GatewayConfig's node topics
            return new DoctorOptions(c.catalog(), c.bootstrap(), c.kafkaProperties(), c.timeout(),
                    PlatformSettings.load(s).redisUri(), s.string("notify.registry.key-prefix", c.catalog().prefix()),
                    s.bool("notify.redis.cluster", false), registry.aliveTtl(), registry.aliveRefresh(),
                    s.intIn("notify.gateway.node-topic-partitions", 3, 1, 1000), s.intIn("notify.fanout.stream-partitions", 0, 0, 10_000),
                    c.catalog().prefix() + s.string("notify.fanout.application-id", "notify-fanout"), List.copyOf(checks), replication,
                    lagWarn, lagFail, warn, fail);
        } catch (ConfigException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
