package io.notify.cli.replay;

/**
 * Bad input from the command line (unknown topic, unreadable time, a window that ends before it
 * starts, ...). The commands turn it into one line on stderr and exit code 2, always before reading
 * a record.
 */
public final class UsageException extends RuntimeException {

    public UsageException(String message) {
        super(message);
    }
}
