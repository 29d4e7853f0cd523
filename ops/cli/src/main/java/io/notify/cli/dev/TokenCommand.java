package io.notify.cli.dev;

import io.notify.platform.DevKeys;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code notifyctl token --user 42}: mints a client token with the local stack's dev key. Refuses
 * unless the dev key is asked for explicitly ({@code --dev-key}) or exists in the data dir of a
 * stack started by {@code notifyctl dev}: production tokens come from your identity provider.
 */
@Command(name = "token", mixinStandardHelpOptions = true,
        description = "Mint a dev client token (dev stacks only).")
public final class TokenCommand implements Callable<Integer> {

    @Option(names = "--user", required = true, description = "User id (the token's sub).")
    String user;

    @Option(names = "--ttl", defaultValue = "12h", description = "Lifetime, e.g. 30m, 12h (default: ${DEFAULT-VALUE}).")
    String ttl;

    @Option(names = "--data-dir", defaultValue = ".notify-dev", description = "Data dir of the dev stack (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--dev-key", description = "Use (and create if missing) the dev key in --data-dir.")
    boolean devKey;

    @Override
    public Integer call() {
        Duration lifetime;
        try {
            lifetime = io.notify.common.config.Settings.parseDurationArg("--ttl", ttl);
        } catch (RuntimeException e) {
            System.err.println("notifyctl token: " + e.getMessage());
            return 2;
        }
        try {
            DevKeys keys = devKey ? DevKeys.inDataDir(dataDir) : DevKeys.existing(dataDir);
            System.out.println(keys.token(user, lifetime));
            return 0;
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("notifyctl token: " + e.getMessage() + " — this command only mints dev tokens; pass --dev-key");
            return 2;
        }
    }
}
