package io.notify.gateway;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.notify.common.config.Settings;
import io.notify.common.metrics.ServiceMeters;
import io.notify.common.tls.PemFiles;
import io.notify.gateway.config.GatewayConfig;
import io.notify.gateway.inbox.HttpInboxSource;
import io.notify.gateway.inbox.InboxSource;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.query.QueryApiClient;
import io.notify.gateway.receipts.KafkaReceiptSink;
import io.notify.gateway.receipts.ReceiptSink;
import io.notify.gateway.receipts.UserChangeSinks;
import io.notify.gateway.registry.RedisRegistrar;
import io.notify.gateway.registry.Registrar;
import io.notify.gateway.resume.HttpResumeSource;
import io.notify.gateway.resume.ResumeSource;
import io.notify.registry.lease.NodeRegistryConfig;
import java.time.Clock;
import java.util.function.BiFunction;

/**
 * The one wiring of a gateway node, used by {@link GatewayMain}, {@code notifyctl dev} and every
 * test that stands a node up: settings are read once ({@code notify.gateway.*}, the shared
 * {@code notify.kafka/redis/topic-prefix} keys, and the registry timings {@code notify.registry.*}),
 * the metrics registry is made, and the real parts — the Redis registrar, the HTTP resume and inbox
 * sources over one query API client, the Kafka producer of {@code notify.receipts} — are built, unless
 * the caller puts test doubles in their place. The node is
 * returned unstarted; {@link GatewayServer#start()} binds it.
 */
public final class GatewayService {

    /**
     * The parts a test may replace; a null field means the real one.
     *
     * @param registrar    given the node's config and metrics; replaces the Redis registrar
     * @param resumeSource given the node's config and metrics; replaces resume's HTTP query-API client
     * @param clock        replaces the system UTC clock (token expiry, inbox times, receipts' times)
     * @param inboxSource  given the node's config and metrics; replaces the inbox API's HTTP query-API client
     * @param receiptSink  given the node's config and metrics; replaces the Kafka producer of {@code notify.receipts}
     */
    public record Doubles(BiFunction<GatewayConfig, GatewayMetrics, Registrar> registrar,
                          BiFunction<GatewayConfig, GatewayMetrics, ResumeSource> resumeSource, Clock clock,
                          BiFunction<GatewayConfig, GatewayMetrics, InboxSource> inboxSource,
                          BiFunction<GatewayConfig, GatewayMetrics, ReceiptSink> receiptSink) {

        public static final Doubles NONE = new Doubles(null, null, null);

        /** The registrar, the resume source and the clock replaced; the inbox parts real. */
        public Doubles(BiFunction<GatewayConfig, GatewayMetrics, Registrar> registrar,
                       BiFunction<GatewayConfig, GatewayMetrics, ResumeSource> resumeSource, Clock clock) {
            this(registrar, resumeSource, clock, null, null);
        }
    }

    private GatewayService() {
    }

    /**
     * A node wired from {@code settings} with its real parts.
     *
     * @throws io.notify.common.config.ConfigException on a missing or invalid setting
     */
    public static GatewayServer fromSettings(Settings settings) {
        return fromSettings(settings, Doubles.NONE);
    }

    /** A node wired from {@code settings}, with {@code doubles} in place of the parts they name. */
    public static GatewayServer fromSettings(Settings settings, Doubles doubles) {
        GatewayConfig config = GatewayConfig.load(settings);
        NodeRegistryConfig registryConfig = NodeRegistryConfig.load(settings);
        PrometheusMeterRegistry meters = ServiceMeters.create();
        GatewayMetrics metrics = new GatewayMetrics(meters);
        // one client of the query API (its threads, token, URLs, trust) for resume and the inbox API, made only if one is real
        QueryApiClient query = doubles.resumeSource() != null && doubles.inboxSource() != null ? null
                : new QueryApiClient(config.queryUrls(), config.queryToken(), config.queryTimeout(), metrics,
                        config.queryCaFile() == null ? null : PemFiles.trusting(config.queryCaFile(), "notify.gateway.query-ca-file"));
        ResumeSource source = doubles.resumeSource() != null ? doubles.resumeSource().apply(config, metrics) : new HttpResumeSource(query);
        InboxSource inbox = doubles.inboxSource() != null ? doubles.inboxSource().apply(config, metrics) : new HttpInboxSource(query);
        ReceiptSink receipts = doubles.receiptSink() != null ? doubles.receiptSink().apply(config, metrics)
                : KafkaReceiptSink.create(config);
        Registrar registrar = doubles.registrar() != null ? doubles.registrar().apply(config, metrics)
                : RedisRegistrar.create(config.nodeId(), config.redisUri(), config.redisCluster(), config.registryKeyPrefix(),
                        registryConfig, meters);
        // push registrations go where receipts do; a node whose receipts are a test's double has no Kafka to write them to
        UserChangeSinks userChanges = doubles.receiptSink() != null ? null : UserChangeSinks.create(config);
        return new GatewayServer(config, meters, metrics, registrar, source, inbox, receipts, userChanges,
                doubles.clock() != null ? doubles.clock() : Clock.systemUTC());
    }
}
