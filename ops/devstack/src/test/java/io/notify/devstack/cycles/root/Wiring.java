package io.notify.devstack.cycles.root;

import io.notify.devstack.cycles.root.sub.Part;

/** A root class that wires a subpackage which uses a root type back: the cycle PackageCyclesTest expects. */
public final class Wiring {

    public static final Counter COUNTER = new Counter();

    public Part part() {
        return new Part();
    }

    /** Like a module's metrics class kept in its root package. */
    public static final class Counter {
        public void inc() {
        }
    }
}
