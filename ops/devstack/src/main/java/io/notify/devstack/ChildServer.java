package io.notify.devstack;

import java.nio.file.Path;

/**
 * A server this JVM runs as a child process (a Kafka broker, Redis): its lifecycle, shared by
 * both. {@link #start} launches the child unless it runs, and returns once it is ready; {@link
 * #restart} comes back with the same ports and data dir; a shutdown hook kills a child still
 * running when this JVM exits; {@link #close} stops it for good and deletes its data dir when that
 * was a temporary one.
 */
abstract class ChildServer<S extends ChildServer<S>> implements AutoCloseable {

    private final Path dataDir;
    private final boolean temporary;
    private final Thread killOnExit;
    private boolean closed;

    /** Creates {@code requestedDataDir} (or a temporary dir when it is null) and registers the kill-on-exit hook. */
    ChildServer(Path requestedDataDir, String tempPrefix, String name) {
        this.temporary = requestedDataDir == null;
        this.dataDir = DataDirs.createOrTemp(requestedDataDir, tempPrefix);
        this.killOnExit = new Thread(this::killQuietly, "notify-devstack-kill-" + name);
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /** Starts the child and waits until it is ready; a running child is left as it is. */
    public final synchronized S start() {
        if (closed) {
            throw new IllegalStateException("closed: " + this);
        }
        if (!isAlive()) {
            launch();
        }
        return self();
    }

    /** {@link #stop()} then {@link #start()}: same ports, same data dir. */
    public final synchronized S restart() {
        stop();
        return start();
    }

    /** Launches the child and returns once it is ready; kills it and throws when it is not. */
    abstract void launch();

    /** SIGKILL without waiting or failing: the shutdown hook's last resort. */
    abstract void killQuietly();

    public abstract boolean isAlive();

    /** Graceful stop: SIGTERM, then waits for the exit. */
    public abstract void stop();

    public Path dataDir() {
        return dataDir;
    }

    @SuppressWarnings("unchecked")
    private S self() {
        return (S) this;
    }

    /** Stops the child and deletes the data dir if it was temporary. */
    @Override
    public final synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down; the hook is running or has run
        }
        if (temporary) {
            DataDirs.deleteRecursively(dataDir);
        }
    }
}
