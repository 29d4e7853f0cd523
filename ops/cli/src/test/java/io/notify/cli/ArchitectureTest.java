package io.notify.cli;

import io.notify.devstack.PackageCycles;
import org.junit.jupiter.api.Test;

/**
 * The ops modules' packages import each other without cycles, their root packages included
 * ({@link PackageCycles}); each product module states the same rule for itself in its own
 * ArchitectureTest, so the build that changes a module is the one that fails.
 */
class ArchitectureTest {

    @Test
    void opsPackagesAreFreeOfCyclesRootIncluded() {
        for (String module : new String[] {"io.notify.cli", "io.notify.platform", "io.notify.devstack"}) {
            PackageCycles.assertNone(module);
        }
    }
}
