package io.notify.registry.lease;

/**
 * A registry write that Redis did not confirm in time (unreachable, slow, or too many writes
 * outstanding). Retriable: {@link NodeRegistry} keeps the connection registered locally and writes it
 * again with its next successful heartbeat.
 */
public final class RegistryUnavailableException extends RuntimeException {

    public RegistryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public RegistryUnavailableException(String message) {
        super(message);
    }
}
