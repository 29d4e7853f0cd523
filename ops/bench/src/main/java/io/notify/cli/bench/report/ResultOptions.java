package io.notify.cli.bench.report;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --out}: the results folder every benchmark and chaos run writes its JSON and charts to (a picocli mixin). */
public final class ResultOptions {

    @Option(names = "--out", description = "Results folder (default: ${DEFAULT-VALUE}).", defaultValue = ResultFiles.DEFAULT_OUT)
    Path out;

    public Path out() {
        return out;
    }
}
