package io.notify.cli.bench.gateway;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options every gateway benchmark shares: how load agents are spread and where results go. */
public final class FleetOptions {

    @Option(names = "--clients-per-agent", description = "Most clients per load-agent JVM (default: ${DEFAULT-VALUE}).",
            defaultValue = "8000")
    int perAgent;

    @Option(names = "--source-addresses", description = "Client source addresses 127.0.0.2.. (default: ${DEFAULT-VALUE}).",
            defaultValue = "8")
    int sourceAddresses;

    @Option(names = "--gateway-heap", description = "-Xmx of the gateway JVM (default: ${DEFAULT-VALUE}).", defaultValue = "1g")
    String gatewayHeap;

    @Option(names = "--out", description = "Results folder (default: ${DEFAULT-VALUE}).", defaultValue = io.notify.cli.bench.report.ResultFiles.DEFAULT_OUT)
    Path out;

    /** True when the agent split fits the per-process descriptor limit and the address range. */
    boolean valid() {
        return perAgent >= 1 && perAgent <= 19_000 && sourceAddresses >= 1 && sourceAddresses <= 250;
    }
}
