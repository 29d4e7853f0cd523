package io.notify.devstack;

import java.nio.file.Path;

/**
 * What a server child process of this JVM (a Kafka broker, Redis) leaves behind, and its undoing:
 * a shutdown hook that kills the child if this JVM exits first, and a data dir that is deleted
 * when it was a temporary one. {@link #release} runs once, at the owner's close.
 */
final class ChildCleanup {

    private final Path dataDir;
    private final boolean temporary;
    private final Thread killOnExit;

    /** Creates {@code requestedDataDir} (or a temporary dir when it is null) and registers the hook that runs {@code kill}. */
    ChildCleanup(Path requestedDataDir, String tempPrefix, String name, Runnable kill) {
        this.temporary = requestedDataDir == null;
        this.dataDir = DataDirs.createOrTemp(requestedDataDir, tempPrefix);
        this.killOnExit = new Thread(kill, "notify-devstack-kill-" + name);
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    Path dataDir() {
        return dataDir;
    }

    /** Removes the hook (the owner stopped the child itself) and deletes a temporary data dir. */
    void release() {
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
