package io.notify.devstack.cycles.clean.sub;

public final class Part {
}
