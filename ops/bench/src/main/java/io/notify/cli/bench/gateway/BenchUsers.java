package io.notify.cli.bench.gateway;

import io.notify.protocol.stream.StreamId;

/** Users of the gateway benchmarks: client i is user {@code gw-user-<i>}, stream {@code u:gw-user-<i>}. */
final class BenchUsers {

    private BenchUsers() {
    }

    static String user(int index) {
        return "gw-user-" + index;
    }

    static StreamId stream(int index) {
        return StreamId.forUser(user(index));
    }
}
