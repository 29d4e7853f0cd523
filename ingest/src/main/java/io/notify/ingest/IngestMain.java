package io.notify.ingest;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;

/** Entry point: {@code java -cp ... io.notify.ingest.IngestMain [key=value ...] [--config=FILE]}. */
public final class IngestMain {

    private IngestMain() {
    }

    public static void main(String[] args) {
        IngestServer server;
        try {
            // the server's constructor checks what only files show (a TLS key that does not match its certificate)
            server = new IngestServer(IngestConfig.load(Settings.fromArgs(args)));
        } catch (ConfigException e) {
            System.err.println("notify-ingest: configuration error: " + e.getMessage());
            System.exit(2);
            return;
        }
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "ingest-shutdown"));
    }
}
