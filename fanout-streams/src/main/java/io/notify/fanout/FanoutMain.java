package io.notify.fanout;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.registry.RouteLookup;
import io.notify.registry.Routes;
import io.notify.registry.ConnectionRef;
import io.notify.schemas.stream.StreamId;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point: {@code java -cp ... io.notify.fanout.FanoutMain [key=value ...] [--config=FILE]}.
 * Wiring only: config → registry → app → start → shutdown hook. Two seams are marked below:
 * {@link #registry(FanoutConfig)} (where the Redis route lookup is constructed) and
 * {@link #startQueryApi} (where the interactive-query HTTP API starts on the running app).
 */
public final class FanoutMain {

    private static final Logger LOG = LoggerFactory.getLogger(FanoutMain.class);

    private FanoutMain() {
    }

    public static void main(String[] args) {
        FanoutConfig config;
        try {
            config = FanoutConfig.load(Settings.fromArgs(args));
        } catch (ConfigException e) {
            System.err.println("notify-fanout-streams: configuration error: " + e.getMessage());
            System.exit(2);
            return;
        }
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        FanoutApp app = new FanoutApp(config, registry(config), new FanoutMetrics(meters), Clock.systemUTC());
        app.streams().setStateListener((next, previous) -> {
            if (next == KafkaStreams.State.ERROR) {
                LOG.error("Kafka Streams is in ERROR; exiting so the supervisor restarts this instance");
                new Thread(() -> System.exit(1), "fanout-exit").start();
            }
        });
        app.start();
        AutoCloseable queryApi = startQueryApi(config, app, meters);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            closeQuietly(queryApi);
            app.close();
        }, "fanout-shutdown"));
    }

    /**
     * SEAM — the connection registry the router reads. Construct the Redis implementation here
     * (e.g. {@code io.notify.registry.RedisRouteLookup} on {@code config.redisUri()}). Until then
     * every lookup answers "unavailable", so events are sequenced, kept in the inbox and recorded
     * on notify.undelivered with reason {@code registry_unavailable}: nothing is lost, nothing is
     * delivered live.
     */
    static RouteLookup registry(FanoutConfig config) {
        LOG.warn("no connection registry is wired in: every event is recorded undelivered (registry_unavailable)");
        return new RouteLookup() {
            @Override
            public Routes lookup(StreamId stream, Duration timeout) {
                return Routes.unavailable();
            }

            @Override
            public void removeStale(StreamId stream, List<ConnectionRef> stale) {
            }
        };
    }

    /**
     * SEAM — the interactive-query HTTP API (head, events after a seq, batch; /healthz, /readyz,
     * /metrics via {@code OpsEndpoints}) starts here on {@code app.streams()} with
     * {@code InboxStores}, listening on {@code config.queryHost()}:{@code config.queryPort()}. It is
     * closed before the app. Today the app serves no HTTP.
     */
    static AutoCloseable startQueryApi(FanoutConfig config, FanoutApp app, PrometheusMeterRegistry meters) {
        return () -> { };
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.warn("closing {} failed", closeable, e);
        }
    }
}
