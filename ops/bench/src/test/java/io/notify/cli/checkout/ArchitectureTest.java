package io.notify.cli.checkout;

import io.notify.devstack.PackageCycles;
import org.junit.jupiter.api.Test;

/** notifyctl's packages, this module's bench and chaos with the operator's commands, import each other without cycles. */
class ArchitectureTest {

    @Test
    void packagesAreFreeOfCyclesRootIncluded() {
        PackageCycles.assertNone("io.notify.cli");
    }
}
