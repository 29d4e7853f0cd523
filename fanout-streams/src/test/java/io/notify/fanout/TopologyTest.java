package io.notify.fanout;

import io.notify.fanout.routing.NodeTopics;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test of the topology on the production config, without a broker: each test starts its own
 * {@link FanoutFixture} (state in a fresh temp dir) with {@link #start}, and it is closed after the
 * test.
 */
abstract class TopologyTest {

    @TempDir
    Path stateDir;
    FanoutFixture f;

    /** The fixture with production settings and every node topic assumed to exist. */
    void start() {
        start(Map.of(), NodeTopics.assumeAll());
    }

    /** The fixture with {@code settings} over the production ones, and only {@code nodeTopics} existing. */
    void start(Map<String, String> settings, NodeTopics nodeTopics) {
        closeFixture();
        f = new FanoutFixture(stateDir, settings, nodeTopics);
    }

    @AfterEach
    void closeFixture() {
        if (f != null) {
            f.close();
            f = null;
        }
    }
}
