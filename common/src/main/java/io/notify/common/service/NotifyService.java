package io.notify.common.service;

/**
 * The one shape of Notify's services: ingest ({@code IngestServer}), fanout-streams
 * ({@code FanoutService}) and a gateway node ({@code GatewayServer}), each built by its one wiring
 * and run by its {@code *Main}, {@code notifyctl dev}, the platform kit and the tests alike.
 *
 * <ul>
 *   <li>{@link #name()}: what logs and reports call it ({@code ingest}, {@code fanout-streams},
 *       {@code gateway <node id>}).</li>
 *   <li>{@link #start()} returns once the service serves (its listeners bound, its clients
 *       connected), or throws and leaves nothing running.</li>
 *   <li>{@link #stop()} stops at once and releases everything it holds; calling it again does
 *       nothing. {@link #close()} is {@code stop()}, so try-with-resources works.</li>
 * </ul>
 * A service with clients to hand over adds its own step before {@code stop()}: a gateway node's
 * {@code drain()} (SIGTERM runs it first). docs/architecture.md, "Services".
 */
public interface NotifyService extends AutoCloseable {

    String name();

    NotifyService start();

    void stop();

    @Override
    default void close() {
        stop();
    }
}
