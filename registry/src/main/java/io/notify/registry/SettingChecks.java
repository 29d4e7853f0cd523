package io.notify.registry;

import java.time.Duration;

/**
 * The checks both sides' settings records share ({@code lease.NodeRegistryConfig},
 * {@code route.RouteLookupConfig}), so that every error reads the same way and names the setting:
 * {@code registry setting <name> must be …}.
 */
public final class SettingChecks {

    private SettingChecks() {
    }

    public static void requirePositive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException("registry setting " + name + " must be >= 1, was " + value);
        }
    }

    public static void requirePositive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("registry setting " + name + " must be a positive duration, was " + value);
        }
    }
}
