package io.notify.cli.dev;

import io.notify.platform.DevKeys;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import io.notify.gateway.rooms.RoomPatterns;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code notifyctl token --user 42}: mints a client token with the local stack's dev key;
 * {@code notifyctl token --service}: prints the local stack's query-API service token (what its
 * gateways send as {@code Authorization: Bearer}). Refuses unless the dev key is asked for
 * explicitly ({@code --dev-key}) or exists in the data dir of a stack started by {@code notifyctl
 * dev}: production tokens come from your identity provider and your secret store.
 */
@Command(name = "token", mixinStandardHelpOptions = true,
        description = "Print a dev token: a client token (--user) or the query API's service token (--service). Dev stacks only.")
public final class TokenCommand implements Callable<Integer> {

    /** Exactly one of: a client token for a user, or the service token. */
    static final class Kind {
        @Option(names = "--user", required = true, description = "Mint a client token for this user id (the token's sub).")
        String user;

        @Option(names = "--service", required = true,
                description = "Print the dev stack's query-API service token (Authorization: Bearer <token> on :8090).")
        boolean service;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Kind kind;

    @Option(names = "--ttl", description = "Lifetime of a --user token, e.g. 30m, 12h (default: 12h).")
    String ttl;

    @Option(names = "--rooms", split = ",", paramLabel = "PATTERN",
            description = "With --user: the rooms claim, room patterns the user may join beyond the public ones, "
                    + "comma-separated, e.g. 'chat-*,org-7.*' ('*' matches any run of room-name characters).")
    List<String> rooms;

    @Option(names = "--data-dir", defaultValue = ".notify-dev", description = "Data dir of the dev stack (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--dev-key", description = "Use (and create if missing) the dev key in --data-dir.")
    boolean devKey;

    @Override
    public Integer call() {
        Duration lifetime;
        try {
            if (kind.service && ttl != null) {
                throw new IllegalArgumentException("--ttl applies to --user tokens only: the service token does not expire");
            }
            if (kind.service && rooms != null) {
                throw new IllegalArgumentException("--rooms applies to --user tokens only");
            }
            if (rooms != null) {
                for (String r : rooms) {
                    if (!RoomPatterns.isPattern(r)) {
                        throw new IllegalArgumentException("--rooms: '" + r + "' is not a room pattern (1..128 chars of "
                                + "[A-Za-z0-9._:-] and '*')");
                    }
                }
                RoomPatterns.of(rooms); // the count bound
            }
            lifetime = io.notify.common.config.Settings.parseDurationArg("--ttl", ttl == null ? "12h" : ttl);
        } catch (RuntimeException e) {
            System.err.println("notifyctl token: " + e.getMessage());
            return 2;
        }
        try {
            DevKeys keys = devKey ? DevKeys.inDataDir(dataDir) : DevKeys.existing(dataDir);
            System.out.println(kind.service ? keys.queryToken() : keys.token(kind.user, lifetime, rooms));
            return 0;
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("notifyctl token: " + e.getMessage() + " — this command only prints dev tokens; pass --dev-key");
            return 2;
        }
    }
}
