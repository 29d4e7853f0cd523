package io.notify.client;

import io.notify.devstack.PackageCycles;
import org.junit.jupiter.api.Test;

/**
 * This module's packages import each other without cycles, {@code io.notify.client} itself included
 * ({@link PackageCycles}). The root package is the SDK's API (the client, its builder, the listeners
 * and events an application implements and receives) and {@code internal} the engine behind it, which
 * takes those listeners and raises those events: the two use each other by design and form one
 * slice; {@code reconnect} and {@code store} must stay free of both directions' cycles.
 */
class ArchitectureTest {

    @Test
    void packagesAreFreeOfCyclesRootIncluded() {
        PackageCycles.assertNone("io.notify.client", "internal");
    }
}
