package io.notify.cli.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.notify.devstack.KafkaBrokerProcess;
import io.notify.devstack.RedisOptions;
import io.notify.devstack.RedisServer;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * What fanout-streams benchmarks run against: a Kafka broker and a Redis, each a child process of
 * its own, an admin client on the broker and a Redis connection for {@code INFO}. Every run makes
 * its own topics and registry keys under a fresh prefix, so one set serves every run of an
 * invocation. {@link #close} stops them all, also when starting one failed.
 */
final class FanoutBackends implements AutoCloseable {

    private final KafkaBrokerProcess broker;
    private final RedisServer redis;
    private final Admin admin;
    private final RedisClient statsClient;
    private final StatefulRedisConnection<String, String> stats;

    private FanoutBackends(KafkaBrokerProcess broker, RedisServer redis, Admin admin, RedisClient statsClient,
                           StatefulRedisConnection<String, String> stats) {
        this.broker = broker;
        this.redis = redis;
        this.admin = admin;
        this.statsClient = statsClient;
        this.stats = stats;
    }

    static FanoutBackends start() {
        KafkaBrokerProcess broker = new KafkaBrokerProcess().start();
        RedisServer redis = null;
        RedisClient client = null;
        try {
            redis = RedisServer.start(RedisOptions.defaults());
            client = RedisClient.create(redis.uri());
            StatefulRedisConnection<String, String> stats = client.connect();
            return new FanoutBackends(broker, redis,
                    Admin.create(Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers())),
                    client, stats);
        } catch (RuntimeException e) {
            if (client != null) {
                client.shutdown();
            }
            if (redis != null) {
                redis.close();
            }
            broker.close();
            throw e;
        }
    }

    String bootstrapServers() {
        return broker.bootstrapServers();
    }

    String redisUri() {
        return redis.uri();
    }

    Admin admin() {
        return admin;
    }

    /** Synchronous commands on the stats connection ({@code INFO commandstats}). */
    RedisCommands<String, String> stats() {
        return stats.sync();
    }

    @Override
    public void close() {
        admin.close();
        stats.close();
        statsClient.shutdown();
        redis.close();
        broker.close();
    }
}
