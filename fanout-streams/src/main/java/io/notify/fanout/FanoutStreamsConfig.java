package io.notify.fanout;

import io.notify.fanout.commit.CatchUpCommit;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.fanout.routing.MissingNodeTopicHandler;
import io.notify.fanout.routing.NodeTopics;
import io.notify.fanout.routing.RoutePrefetch;
import io.notify.registry.RouteLookup;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.UsePartitionTimeOnInvalidTimestamp;

/**
 * Turns a {@link FanoutConfig} into Kafka Streams properties, in one place. What is fixed here
 * and why:
 * <ul>
 *   <li>{@code ensure.explicit.internal.resource.naming=true}: the app refuses to start if a store
 *       or internal topic got a generated name, which a topology edit could silently change.</li>
 *   <li>{@code production.exception.handler}: {@link MissingNodeTopicHandler}, which skips only
 *       writes to vanished node topics.</li>
 *   <li>timestamps: a record with an invalid (negative) timestamp takes the partition time instead
 *       of killing the thread (intake then DLQs or accepts it on its merits).</li>
 *   <li>{@code auto.offset.reset=earliest}: a new application id starts at the beginning of
 *       notify.events rather than silently skipping what is there.</li>
 *   <li>{@code producer.linger.ms} from {@link FanoutConfig#linger()} (Streams' own default is 100 ms).</li>
 *   <li>{@code main.consumer.interceptor.classes}: {@link RoutePrefetch}, which hints the route lookup
 *       with the streams of every polled record, so cold routes are read ahead, pipelined.</li>
 *   <li>under {@code exactly_once_v2}, {@link CatchUpCommit} on the main consumer (unless
 *       {@link FanoutConfig#commitOnCatchUp()} is off; under at_least_once every write is visible at
 *       once, and a commit only bounds what a crash replays): a stream thread that has processed everything it
 *       polled commits at once, so an event waits about one transaction round trip for its commit, not
 *       the commit interval, which still paces a backlog.</li>
 *   <li>{@code consumer.session.timeout.ms} from {@link FanoutConfig#sessionTimeout()} (Kafka's default
 *       is 45 s), heartbeats every third of it, at most 1 s (Kafka's default is 3 s): a member learns
 *       of a rebalance from its heartbeat, and a cooperative move of tasks takes two rounds.</li>
 *   <li>{@code acceptable.recovery.lag=1000} (Kafka's default 10,000) and
 *       {@code probing.rebalance.interval.ms=60000} (its minimum; default 10 min): a rejoining
 *       instance whose state is further behind than 1,000 changelog records gets warm-up replicas
 *       first and its active tasks only once a probing rebalance finds it caught up, so the moving
 *       partitions wait for a rebalance and a short restore, not for the restore of a whole task
 *       (docs/BENCHMARKS.md "Fanout rejoin, profiled and fixed").</li>
 *   <li>{@code max.task.idle.ms=-1} (Kafka's default 0): a task processes what it has buffered without
 *       waiting to fetch its other input partitions. Those wait-to-fetch checks order records across a
 *       task's inputs by timestamp, which only joins need; here every stream's order comes from one input
 *       partition (the key's), and notify.events, the by-stream topic and notify.receipts are independent.
 *       The check also built its log text with {@code String.format} on every call whatever the log level
 *       (Kafka 4.4): 11 % of the stream thread's samples at 8,000 events/s, most of them that text (docs/BENCHMARKS.md).</li>
 * </ul>
 * {@link FanoutConfig#streamsOverrides()} are applied last and win.
 */
public final class FanoutStreamsConfig {

    /** The longest heartbeat interval: how late a member may learn of a rebalance round. */
    static final long HEARTBEAT_MAX_MS = 1_000;
    /** Changelog records a rejoining instance may be behind and still take an active task at once. */
    static final long ACCEPTABLE_RECOVERY_LAG = 1_000;
    /** How often warm-up replicas are checked for being caught up (Kafka's minimum). */
    static final long PROBING_REBALANCE_INTERVAL_MS = 60_000;

    private FanoutStreamsConfig() {
    }

    /** @param routes the lookup the router uses, hinted by {@link RoutePrefetch}; null: no hints */
    public static Properties properties(FanoutConfig config, NodeTopics nodeTopics, FanoutMetrics metrics, RouteLookup routes) {
        Properties p = new Properties();
        p.putAll(config.kafkaClient()); // security for every client Streams creates; the settings below win
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.streamsApplicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, config.processingGuarantee().streamsValue());
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(config.commitInterval().toMillis()));
        // Kafka Streams sets linger.ms=100 on its producers; every hop of an event (repartition,
        // node topic) then waits up to that long for a batch to fill. 5 ms keeps batching under load.
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), Long.toString(config.linger().toMillis()));
        long sessionMs = config.sessionTimeout().toMillis();
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), Long.toString(sessionMs));
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), Long.toString(Math.min(HEARTBEAT_MAX_MS, sessionMs / 3)));
        p.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, Long.toString(ACCEPTABLE_RECOVERY_LAG));
        p.put(StreamsConfig.PROBING_REBALANCE_INTERVAL_MS_CONFIG, Long.toString(PROBING_REBALANCE_INTERVAL_MS));
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, Long.toString(StreamsConfig.MAX_TASK_IDLE_MS_DISABLED));
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, Integer.toString(config.standbyReplicas()));
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(config.streamThreads()));
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, Long.toString(config.cacheMaxBytes()));
        p.put(StreamsConfig.STATE_DIR_CONFIG, config.stateDir().toString());
        p.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, "true");
        p.put(StreamsConfig.DEFAULT_TIMESTAMP_EXTRACTOR_CLASS_CONFIG, UsePartitionTimeOnInvalidTimestamp.class.getName());
        p.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, MissingNodeTopicHandler.class.getName());
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        // No global stores here; opting in now keeps behaviour unchanged when Kafka 5.0 makes it the default.
        p.put("processing.exception.handler.global.enabled", "true");
        // Transactional state stores (KIP-892, Kafka 4.4): store writes are buffered until their
        // changelog transaction commits, and interactive queries read only committed data. So the
        // query API never hands a client a position whose transaction later aborts, and a crash
        // no longer wipes the local state (no full restore from the changelog).
        if (config.processingGuarantee() == FanoutConfig.ProcessingGuarantee.EXACTLY_ONCE_V2) {
            p.put("enable.transactional.statestores", "true");
            p.put("default.interactive.query.isolation.level", "READ_COMMITTED");
        }
        if (config.queryPort() > 0) {
            // Lets queryMetadataForKey name the instance that owns a stream (the query API forwards to it).
            p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, config.queryAdvertisedHost() + ":" + config.queryPort());
        }
        List<String> interceptors = new ArrayList<>();
        if (routes != null) {
            interceptors.add(RoutePrefetch.class.getName());
            p.put(StreamsConfig.mainConsumerPrefix(RoutePrefetch.LOOKUP), routes);
            p.put(StreamsConfig.mainConsumerPrefix(RoutePrefetch.TOPICS), Set.of(config.topics().events().name(),
                    FanoutTopology.byStreamTopic(config.streamsApplicationId())));
        }
        if (config.commitsOnCatchUp()) {
            interceptors.add(CatchUpCommit.class.getName());
        }
        if (!interceptors.isEmpty()) {
            p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG), String.join(",", interceptors));
        }
        // Objects, not strings: Kafka hands unknown keys to configure() as given (see MissingNodeTopicHandler).
        p.put(MissingNodeTopicHandler.NODE_TOPICS, nodeTopics);
        p.put(MissingNodeTopicHandler.METRICS, metrics);
        p.put(MissingNodeTopicHandler.TOPIC_PREFIX, config.topicPrefix());
        p.putAll(config.streamsOverrides());
        return p;
    }
}
