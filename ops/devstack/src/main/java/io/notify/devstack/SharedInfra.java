package io.notify.devstack;

import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * What all tests of one run share: the backend (one Kafka, one Redis) and one Admin client.
 * Lives in the root {@code ExtensionContext.Store}, which closes it when the run ends.
 */
final class SharedInfra implements AutoCloseable {

    private final InfraBackend backend;
    private final SharedAdmin admin;

    private SharedInfra(InfraBackend backend) {
        this.backend = backend;
        this.admin = new SharedAdmin(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, backend.bootstrapServers(),
                AdminClientConfig.CLIENT_ID_CONFIG, "notify-it-admin"));
    }

    static SharedInfra start(InfraBackend backend) {
        return new SharedInfra(backend);
    }

    InfraBackend backend() {
        return backend;
    }

    SharedAdmin admin() {
        return admin;
    }

    @Override
    public void close() {
        try {
            admin.closeForReal();
        } finally {
            backend.close();
        }
    }
}
