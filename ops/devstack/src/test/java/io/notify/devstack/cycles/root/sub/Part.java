package io.notify.devstack.cycles.root.sub;

import io.notify.devstack.cycles.root.Wiring;

public final class Part {

    public void run() {
        Wiring.COUNTER.inc();
    }
}
