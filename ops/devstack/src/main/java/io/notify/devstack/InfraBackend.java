package io.notify.devstack;

/**
 * The Kafka and Redis that {@link NotifyInfraExtension} hands to tests: embedded (default) or
 * Testcontainers. One instance per test run, closed when the run ends.
 */
interface InfraBackend extends AutoCloseable {

    String bootstrapServers();

    String redisUri();

    /** Short name for messages, e.g. "embedded". */
    String kind();

    @Override
    void close();

    /** Kafka and Redis of a {@link DevStack} on free ports: never touches Docker. */
    static InfraBackend embedded() {
        DevStack stack = DevStack.start(DevStackOptions.forTests());
        return new InfraBackend() {
            @Override
            public String bootstrapServers() {
                return stack.bootstrapServers();
            }

            @Override
            public String redisUri() {
                return stack.redisUri();
            }

            @Override
            public String kind() {
                return "embedded";
            }

            @Override
            public void close() {
                stack.close();
            }
        };
    }
}
