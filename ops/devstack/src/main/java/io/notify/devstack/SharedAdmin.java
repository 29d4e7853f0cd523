package io.notify.devstack;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.ForwardingAdmin;

/**
 * The one {@code Admin} client that all tests of a run share; a test that closes it (for example
 * with try-with-resources) does not break it for the others. Only {@link #closeForReal()} closes it.
 */
final class SharedAdmin extends ForwardingAdmin {

    SharedAdmin(Map<String, Object> configs) {
        super(configs);
    }

    @Override
    public void close(Duration timeout) {
        // shared by every test of the run: closed once, by the extension, when the run ends
    }

    void closeForReal() {
        super.close(Duration.ofSeconds(5));
    }
}
