package io.notify.ingest;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;

/** Entry point: {@code java -cp ... io.notify.ingest.IngestMain [key=value ...] [--config=FILE]}. */
public final class IngestMain {

    private IngestMain() {
    }

    public static void main(String[] args) {
        IngestConfig config;
        try {
            config = IngestConfig.load(Settings.fromArgs(args));
        } catch (ConfigException e) {
            System.err.println("notify-ingest: configuration error: " + e.getMessage());
            System.exit(2);
            return;
        }
        IngestServer server = new IngestServer(config).start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "ingest-shutdown"));
    }
}
