package io.notify.push;

import io.notify.devstack.PackageCycles;
import org.junit.jupiter.api.Test;

/** This module's packages import each other without cycles, {@code io.notify.push} itself included ({@link PackageCycles}). */
class ArchitectureTest {

    @Test
    void packagesAreFreeOfCyclesRootIncluded() {
        PackageCycles.assertNone("io.notify.push");
    }
}
