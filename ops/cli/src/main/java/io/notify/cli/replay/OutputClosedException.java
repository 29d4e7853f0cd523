package io.notify.cli.replay;

import java.io.IOException;

/**
 * Stdout was closed by its reader ({@code notifyctl replay ... | head}). Not a failure: the
 * commands stop reading and exit 0 without a message, as a Unix filter would.
 */
final class OutputClosedException extends IOException {

    OutputClosedException() {
        super("stdout was closed");
    }
}
