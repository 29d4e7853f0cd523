package io.notify.fanout;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point: {@code java -cp ... io.notify.fanout.FanoutMain [key=value ...] [--config=FILE]}.
 * Wiring only: config → {@link FanoutService} (query API, Redis route lookup, Kafka Streams) →
 * start → shutdown hook; a Streams ERROR state exits with status 1 so a supervisor restarts it.
 */
public final class FanoutMain {

    private static final Logger LOG = LoggerFactory.getLogger(FanoutMain.class);

    private FanoutMain() {
    }

    public static void main(String[] args) {
        FanoutConfig config;
        FanoutService service;
        try {
            config = FanoutConfig.load(Settings.fromArgs(args));
            // the service's constructor checks what only files show (a TLS key that does not match its certificate)
            service = new FanoutService(config);
        } catch (ConfigException e) {
            System.err.println("notify-fanout-streams: configuration error: " + e.getMessage());
            System.exit(2);
            return;
        }
        service.app().streams().setStateListener((next, previous) -> {
            if (next == KafkaStreams.State.ERROR) {
                LOG.error("Kafka Streams is in ERROR; exiting so the supervisor restarts this instance");
                new Thread(() -> System.exit(1), "fanout-exit").start();
            }
        });
        service.start();
        LOG.info("fanout-streams query API on port {} (bound to {}, {} service token(s) accepted); management on port {}",
                service.queryPort(), config.queryHost(), config.queryTokens().size(), service.managementPort());
        Runtime.getRuntime().addShutdownHook(new Thread(service::close, "fanout-shutdown"));
    }

}
