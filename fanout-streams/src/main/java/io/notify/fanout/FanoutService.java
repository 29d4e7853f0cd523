package io.notify.fanout;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.notify.common.auth.BearerKeys;
import io.notify.common.metrics.ServiceMeters;
import io.notify.common.service.NotifyService;
import io.notify.common.tls.ServerTls;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.fanout.query.QueryServer;
import io.notify.registry.RegistryClients;
import io.notify.registry.RegistryKeys;
import io.notify.registry.RegistryRedis;
import io.notify.registry.RouteLookup;
import io.notify.registry.route.RedisRouteLookup;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * One fanout-streams instance with everything it serves: the query HTTP server (bound first, so
 * its real port is what Kafka Streams advertises as {@code application.server}), the Redis route
 * lookup, and the Kafka Streams app. Used by {@link FanoutMain}, {@code notifyctl dev} and the ITs.
 * {@link #close} stops the query API, then the app (bounded), then Redis.
 */
public final class FanoutService implements NotifyService {

    private boolean stopped;
    private final PrometheusMeterRegistry meters = ServiceMeters.create();
    private final QueryServer query;
    private final ServerTls tls;
    private final RegistryRedis redis;
    private final FanoutApp app;

    /** Wires an instance on the Redis registry at {@code config.redisUri()} (keys under {@code notify.registry.key-prefix}). */
    public FanoutService(FanoutConfig config) {
        this(config, null);
    }

    /** Wires an instance on the given route lookup (tests: InMemoryRouteLookup); null = Redis. */
    public FanoutService(FanoutConfig config, RouteLookup lookup) {
        this.tls = ServerTls.startOrNull(Optional.ofNullable(config.tls()), meters);
        this.query = new QueryServer(config.queryHost(), config.queryPort(), config.queryAdvertisedHost(),
                config.managementHost(), config.managementPort(), BearerKeys.numbered(config.queryTokens()), meters, tls);
        FanoutConfig bound = config.withQueryPort(query.port());
        RouteLookup registry = lookup;
        if (registry == null) {
            this.redis = RegistryClients.create(config.redisUri(), config.redisCluster(), Duration.ofSeconds(2));
            registry = new RedisRouteLookup(redis, new RegistryKeys(config.registryKeyPrefix()), Clock.systemUTC(), meters);
        } else {
            this.redis = null;
        }
        this.app = new FanoutApp(bound, registry, new FanoutMetrics(meters), Clock.systemUTC());
    }

    @Override
    public String name() {
        return "fanout-streams";
    }

    @Override
    public FanoutService start() {
        app.start();
        query.attach(app.streams(), app::readiness);
        return this;
    }

    public FanoutApp app() {
        return app;
    }

    /** The port the query API listens on. */
    public int queryPort() {
        return query.port();
    }

    /** The management listener's port: {@code /metrics}, {@code /healthz}, {@code /readyz}. */
    public int managementPort() {
        return query.managementPort();
    }

    public PrometheusMeterRegistry meters() {
        return meters;
    }

    /** Stops the query API, the Kafka Streams app and the registry client. Idempotent. */
    @Override
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        query.close();
        if (tls != null) {
            tls.close();
        }
        app.close();
        if (redis != null) {
            redis.close();
        }
        meters.close();
    }
}
