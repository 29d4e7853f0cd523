package io.notify.cli.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code notifyctl bench <scenario>}: reproducible measurements; each prints a table and writes JSON. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Run a benchmark scenario and write its results.",
        subcommands = {BaselineBench.class, IngestBench.class, FanoutBench.class, FallbackBench.class,
                io.notify.cli.bench.gateway.ConnectionsBench.class, io.notify.cli.bench.gateway.StormBench.class,
                io.notify.cli.bench.gateway.RebalanceBench.class, io.notify.cli.bench.gateway.RoomsBench.class,
                io.notify.cli.bench.pipeline.PipelineBench.class, io.notify.cli.bench.push.PushBench.class})
public final class BenchCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.err);
    }
}
