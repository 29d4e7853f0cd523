package io.notify.cli.bench.report;

import picocli.CommandLine.Option;

/** {@code --runs}: how many measured runs a benchmark makes; its report gives their medians (a picocli mixin). */
public final class RunsOptions {

    @Option(names = "--runs", description = "Measured runs; medians are reported (default: ${DEFAULT-VALUE}).", defaultValue = "3")
    int runs;

    public int runs() {
        return runs;
    }
}
