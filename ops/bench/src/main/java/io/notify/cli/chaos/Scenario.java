package io.notify.cli.chaos;

import java.util.Arrays;
import java.util.List;

/** The chaos scenarios, by their command-line names. */
enum Scenario {
    KILL_GATEWAY("kill-gateway"),
    PAUSE_GATEWAY("pause-gateway"),
    KILL_ROUTER("kill-router"),
    RESTART_BROKER("restart-broker"),
    RESTART_REDIS("restart-redis"),
    ROLLING_RESTART("rolling-restart");

    final String cliName;

    Scenario(String cliName) {
        this.cliName = cliName;
    }

    /** One scenario by name, or all of them for {@code all}; fails with the valid names. */
    static List<Scenario> parse(String name) {
        if (name.equals("all")) {
            return List.of(values());
        }
        for (Scenario s : values()) {
            if (s.cliName.equals(name)) {
                return List.of(s);
            }
        }
        throw new IllegalArgumentException("unknown scenario '" + name + "'; one of "
                + Arrays.stream(values()).map(s -> s.cliName).toList() + " or all");
    }
}
