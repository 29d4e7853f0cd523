package io.notify.cli.bench.gateway;

import io.notify.cli.bench.report.ResultOptions;
import io.notify.gateway.GatewayMain;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options every gateway benchmark shares: how load agents are spread and where results go. */
public final class FleetOptions {

    @Option(names = "--clients-per-agent", description = "Most clients per load-agent JVM (default: ${DEFAULT-VALUE}).",
            defaultValue = "8000")
    int perAgent;

    // Each client binds its source address before connecting; Linux then searches that address's
    // ports for a free one, which grew to 13% of a core per agent (mostly system time) at 18,750
    // clients on 8 addresses: keep each address's share to a few thousand ports.
    @Option(names = "--source-addresses", description = "Client source addresses 127.0.0.2.. (default: ${DEFAULT-VALUE}).",
            defaultValue = "64")
    int sourceAddresses;

    @Option(names = "--gateway-heap", description = "-Xmx of the gateway JVM (default: ${DEFAULT-VALUE}).", defaultValue = "1g")
    String gatewayHeap;

    @Option(names = "--gateway-setting", paramLabel = "KEY=VALUE", description = "A setting for every gateway node, over the "
            + "bench's own (repeatable; e.g. notify.gateway.ping-interval=25s).")
    Map<String, String> gatewaySettings = new LinkedHashMap<>();

    @Option(names = "--fanout-setting", paramLabel = "KEY=VALUE", description = "A setting for the fanout-streams instance, over "
            + "the bench's own (repeatable; e.g. notify.fanout.threads=2).")
    Map<String, String> fanoutSettings = new LinkedHashMap<>();

    @Mixin
    ResultOptions results;

    /** The gateway JVM's options, as the results note them: {@code --gateway-heap} and the gateway's own flags. */
    String gatewayJvm() {
        return "-Xmx" + gatewayHeap + " " + String.join(" ", GatewayMain.JVM_OPTIONS);
    }

    /** True when the agent split fits the per-process descriptor limit and the address range. */
    boolean valid() {
        return perAgent >= 1 && perAgent <= 19_000 && sourceAddresses >= 1 && sourceAddresses <= 250;
    }
}
