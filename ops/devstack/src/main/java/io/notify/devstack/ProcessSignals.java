package io.notify.devstack;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * Stopping child processes, one way for all of them (brokers, Redis, services, node, Chromium):
 * SIGTERM with a bounded grace then SIGKILL, or SIGKILL and wait. Every wait is bounded; an
 * interrupt is kept.
 */
public final class ProcessSignals {

    private ProcessSignals() {
    }

    /** SIGTERM; after {@code grace} SIGKILL (logged); waits at most {@code grace} again for the exit. */
    static void terminate(Process p, Duration grace, Logger log, String what) {
        if (p == null || !p.isAlive()) {
            return;
        }
        p.destroy();
        if (!waitFor(p, grace)) {
            log.warn("{} pid {} ignored SIGTERM for {}; killing it", what, p.pid(), grace);
            p.destroyForcibly();
            waitFor(p, grace);
        }
    }

    /** SIGKILL and wait; fails when the process outlives {@code wait}. */
    static void kill(Process p, Duration wait, String what) {
        if (p == null) {
            return;
        }
        p.destroyForcibly();
        if (!waitFor(p, wait)) {
            throw new IllegalStateException(what + " pid " + p.pid() + " still alive " + wait + " after SIGKILL");
        }
    }

    /** SIGKILL and a bounded wait, never throwing (clean-up after a failed start). */
    static void killQuietly(Process p, Duration wait) {
        if (p != null && p.isAlive()) {
            p.destroyForcibly();
            waitFor(p, wait);
        }
    }

    /** SIGKILL to the process and everything it started (a browser's, a shell's children), and a bounded wait, never throwing. */
    public static void killTree(Process p, Duration wait) {
        if (p != null) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            killQuietly(p, wait);
        }
    }

    static boolean waitFor(Process p, Duration timeout) {
        try {
            return p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !p.isAlive();
        }
    }
}
