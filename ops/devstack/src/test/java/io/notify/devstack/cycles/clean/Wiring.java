package io.notify.devstack.cycles.clean;

import io.notify.devstack.cycles.clean.sub.Part;

/** The root uses its subpackage, which uses nothing back: no cycle. */
public final class Wiring {

    public Part part() {
        return new Part();
    }
}
