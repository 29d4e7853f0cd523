package io.notify.fanout;

import io.notify.common.auth.ServiceToken;
import io.notify.common.config.ConfigException;
import io.notify.common.config.PlatformSettings;
import io.notify.common.config.Redacted;
import io.notify.common.config.Settings;
import io.notify.fanout.fallback.FallbackSettings;
import io.notify.fanout.inbox.InboxLimits;
import io.notify.fanout.receipts.InboxStateSettings;
import io.notify.fanout.routing.HotRooms;
import io.notify.common.tls.TlsSettings;
import io.notify.common.http.OpsEndpoints;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Everything fanout-streams can be told, with defaults and bounds, read in one place
 * ({@link #load(Settings)}); every error names the key. Keys and defaults are listed in
 * fanout-streams/README.md; each can also be set as an environment variable
 * ({@code notify.fanout.commit-interval} → {@code NOTIFY_FANOUT_COMMIT_INTERVAL}).
 *
 * @param applicationId   Kafka Streams application id before the topic prefix (see {@link #streamsApplicationId()})
 * @param commitOnCatchUp ask for a commit as soon as a stream thread has processed everything it polled
 *                        ({@link io.notify.fanout.commit.CatchUpCommit}); the interval still paces a backlog
 * @param linger          {@code linger.ms} of the app's producers (repartition, changelogs, stream log, node topics)
 * @param streamPartitions partitions of the by-stream repartition topic; 0 = as many as notify.events
 * @param inboxState      {@code notify.fanout.inbox-state.*}: the read state and delivery receipts of user streams
 * @param fallback        {@code notify.fanout.fallback.*}: the offline fallback timer
 * @param pushMaxRegistrations {@code notify.fanout.push.max-registrations}: push registrations kept per user
 *                        (registering one more removes the oldest; docs/push.md)
 * @param unassignedAlarm how long a running instance may hold no task before it reports not ready ({@link TaskWatch})
 * @param queryTokens     the service tokens the query API accepts as {@code Authorization: Bearer <token>}
 *                        (several during a rotation); at least one — there is no open mode
 * @param streamsOverrides raw Kafka Streams / client properties ({@code notify.fanout.streams.<name>=...}),
 *                        applied last so an operator can set anything this record does not name
 * @param managementHost  where the management listener ({@code /metrics}, {@code /healthz}, {@code /readyz})
 *                        binds; default the query API's host
 * @param managementPort  its port, default the query port + 100 (8190; any free port when the query port is 0);
 *                        must differ from the query port
 * @param tls             {@code notify.fanout.tls.*}: the query API and the management listener speak HTTPS with this
 *                        reloaded certificate (and forwards between instances go over HTTPS); null: plain HTTP
 * @param kafkaClient     Kafka client properties for every client of the app, its Streams clients and
 *                        admin clients ({@code notify.kafka.client.*}, {@link PlatformSettings#kafkaClient()})
 */
public record FanoutConfig(
        String applicationId,
        String bootstrapServers,
        String topicPrefix,
        Duration dedupWindow,
        int inboxMaxEvents,
        Duration inboxMaxAge,
        InboxLimits.Limit roomInbox,
        InboxLimits.Limit broadcastInbox,
        Duration inboxSweepInterval,
        int inboxSweepStreams,
        int inboxSweepMaxDeletes,
        InboxStateSettings inboxState,
        FallbackSettings fallback,
        int pushMaxRegistrations,
        Duration commitInterval,
        boolean commitOnCatchUp,
        Duration linger,
        ProcessingGuarantee processingGuarantee,
        int standbyReplicas,
        int streamThreads,
        long cacheMaxBytes,
        Path stateDir,
        Duration routeTimeout,
        HotRooms.Settings hotRooms,
        int streamPartitions,
        Duration nodeTopicsRefreshInterval,
        Duration nodeTopicsCheckTimeout,
        Duration nodeTopicsMissingTtl,
        Duration shutdownTimeout,
        int threadRestarts,
        Duration threadRestartWindow,
        Duration unassignedAlarm,
        Duration sessionTimeout,
        String redisUri,
        boolean redisCluster,
        String registryKeyPrefix,
        String queryHost,
        int queryPort,
        String queryAdvertisedHost,
        List<ServiceToken> queryTokens,
        Map<String, String> streamsOverrides,
        Map<String, String> kafkaClient,
        String managementHost,
        int managementPort,
        TlsSettings tls) {



    /** Secrets shown as {@code ***} ({@link Redacted}). */
    @Override
    public String toString() {
        return Redacted.toString(this);
    }

    /** The setting that lists the query API's service tokens (comma-separated). */
    public static final String QUERY_TOKENS = "notify.fanout.query.tokens";

    /** Kafka Streams' own rule for application ids, checked here so the error names our key. */
    private static final Pattern APPLICATION_ID = Pattern.compile("^[A-Za-z0-9._-]{1,200}$");

    /** The two guarantees this app supports; at_least_once is for benchmarks only (seqs may then repeat or skip). */
    public enum ProcessingGuarantee {
        EXACTLY_ONCE_V2("exactly_once_v2"),
        AT_LEAST_ONCE("at_least_once");

        private final String streamsValue;

        ProcessingGuarantee(String streamsValue) {
            this.streamsValue = streamsValue;
        }

        public String streamsValue() {
            return streamsValue;
        }

        static ProcessingGuarantee parse(String key, String value) {
            for (ProcessingGuarantee g : values()) {
                if (g.streamsValue.equals(value)) {
                    return g;
                }
            }
            throw new ConfigException(key, "must be exactly_once_v2 or at_least_once, got '" + value + "'");
        }
    }

    public FanoutConfig {
        try {
            TopicCatalog.of(topicPrefix);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("notify.topic-prefix", e.getMessage());
        }
        if (!APPLICATION_ID.matcher(topicPrefix + applicationId).matches()) {
            throw new ConfigException("notify.fanout.application-id",
                    "with the topic prefix it must be 1..200 chars of [A-Za-z0-9._-], got '" + topicPrefix + applicationId + "'");
        }
        if (managementPort != 0 && managementPort == queryPort) {
            throw new ConfigException("notify.fanout.management-port", "must differ from notify.fanout.query.port");
        }
        if (routeTimeout.compareTo(Duration.ofSeconds(10)) > 0) {
            throw new ConfigException("notify.fanout.route-timeout", "must be at most 10s: it bounds a stream-thread wait");
        }
        queryTokens = List.copyOf(queryTokens);
        if (queryTokens.isEmpty()) {
            throw new ConfigException(QUERY_TOKENS, "at least one service token is required: the query API serves every"
                    + " user's inbox and answers only 'Authorization: Bearer <token>' (comma-separate several to rotate;"
                    + " or set NOTIFY_FANOUT_QUERY_TOKENS)");
        }
        streamsOverrides = Map.copyOf(streamsOverrides);
        String protocol = streamsOverrides.get("group.protocol");
        if (protocol != null && !protocol.trim().equalsIgnoreCase("classic")) {
            // Measured with Kafka 4.4 (docs/BENCHMARKS.md "Operate it: fanout rejoin and a rolling
            // restart"): under the streams rebalance protocol the query API answered resumes with an
            // unknown stream during rebalances (clients reset and saw events again), rejoins stalled
            // partitions for minutes, and standby replicas and the session timeout become
            // broker-side group settings.
            throw new ConfigException("notify.fanout.streams.group.protocol", "only 'classic' is supported, got '" + protocol
                    + "': the streams rebalance protocol broke interactive-query resumes in our runs (docs/BENCHMARKS.md "
                    + "\"Operate it: fanout rejoin and a rolling restart\")");
        }
    }

    /**
     * Default commit interval under exactly_once_v2, Kafka's own EOS default: with commits on catch-up
     * ({@link #commitOnCatchUp()}) it paces commits only while a backlog drains, where a shorter one
     * left a stream thread committing most of the time (see README "Commit interval").
     */
    public static final Duration EOS_COMMIT_INTERVAL = Duration.ofMillis(100);
    /** Default commit interval under at_least_once: only bounds what a crash replays. */
    public static final Duration ALOS_COMMIT_INTERVAL = Duration.ofMillis(100);

    /**
     * Default record cache under at_least_once. Under exactly_once_v2 the default is none: transactional
     * stores already keep uncommitted writes to themselves, and a cache would hold every changelog
     * write back until the commit, which then waits for all of them (docs/BENCHMARKS.md
     * "Exactly-once: where the milliseconds go").
     */
    public static final long ALOS_CACHE_MAX_BYTES = 10L * 1024 * 1024;

    /**
     * Default consumer-group session timeout: how long the group waits for an instance that died
     * without leaving (kill -9, a lost host) before its partitions move. Kafka's own 45 s left a dead
     * router's streams undelivered for 45 s; 10 s (Kafka's default before 3.0) tolerates GC pauses
     * of a few seconds. The broker's {@code group.min.session.timeout.ms} (6 s) is the floor.
     */
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);

    public static FanoutConfig load(Settings s) {
        PlatformSettings shared = PlatformSettings.load(s);
        ProcessingGuarantee guarantee = ProcessingGuarantee.parse("notify.fanout.processing-guarantee",
                s.string("notify.fanout.processing-guarantee", "exactly_once_v2"));
        return new FanoutConfig(
                s.string("notify.fanout.application-id", "notify-fanout"),
                shared.bootstrapServers(),
                shared.topicPrefix(),
                s.duration("notify.fanout.dedup-window", Duration.ofHours(24), Duration.ofSeconds(1), Duration.ofDays(30)),
                s.intIn("notify.fanout.inbox.max-events", 1000, 1, 1_000_000),
                s.duration("notify.fanout.inbox.max-age", Duration.ofDays(7), Duration.ofMinutes(1), Duration.ofDays(365)),
                new InboxLimits.Limit(s.intIn("notify.fanout.inbox.room-max-events", 1000, 1, 1_000_000),
                        s.duration("notify.fanout.inbox.room-max-age", Duration.ofDays(7), Duration.ofMinutes(1), Duration.ofDays(365))),
                new InboxLimits.Limit(s.intIn("notify.fanout.inbox.broadcast-max-events", 100, 1, 1_000_000),
                        s.duration("notify.fanout.inbox.broadcast-max-age", Duration.ofDays(7), Duration.ofMinutes(1), Duration.ofDays(365))),
                s.duration("notify.fanout.inbox.sweep-interval", Duration.ofMinutes(1), Duration.ofSeconds(1), Duration.ofDays(1)),
                s.intIn("notify.fanout.inbox.sweep-streams", 1000, 1, 1_000_000),
                s.intIn("notify.fanout.inbox.sweep-max-deletes", 10_000, 1, 10_000_000),
                new InboxStateSettings(
                        s.intIn("notify.fanout.inbox-state.max-devices", 20, 1, 1000),
                        s.duration("notify.fanout.inbox-state.publish-interval", Duration.ofSeconds(1), Duration.ofMillis(100),
                                Duration.ofMinutes(10))),
                new FallbackSettings(
                        s.duration("notify.fanout.fallback.check-interval", Duration.ofSeconds(1), Duration.ofMillis(100),
                                Duration.ofMinutes(1)),
                        s.intIn("notify.fanout.fallback.max-per-run", 10_000, 1, 1_000_000),
                        s.longIn("notify.fanout.fallback.max-pending", 10_000_000L, 1, 1_000_000_000L)),
                s.intIn("notify.fanout.push.max-registrations", 10, 1, 100),
                s.duration("notify.fanout.commit-interval",
                        guarantee == ProcessingGuarantee.EXACTLY_ONCE_V2 ? EOS_COMMIT_INTERVAL : ALOS_COMMIT_INTERVAL,
                        Duration.ZERO, Duration.ofMinutes(10)),
                s.bool("notify.fanout.commit-on-catch-up", true),
                s.duration("notify.fanout.linger", Duration.ofMillis(5), Duration.ZERO, Duration.ofSeconds(1)),
                guarantee,
                s.intIn("notify.fanout.standby-replicas", 0, 0, 10),
                s.intIn("notify.fanout.threads", 1, 1, 64),
                s.longIn("notify.fanout.cache-max-bytes", guarantee == ProcessingGuarantee.EXACTLY_ONCE_V2 ? 0 : ALOS_CACHE_MAX_BYTES,
                        0, 64L * 1024 * 1024 * 1024),
                Path.of(s.string("notify.fanout.state-dir", Path.of(System.getProperty("java.io.tmpdir"), "notify-fanout").toString())),
                s.duration("notify.fanout.route-timeout", Duration.ofMillis(250), Duration.ofMillis(1), Duration.ofSeconds(10)),
                new HotRooms.Settings(
                        s.intIn("notify.fanout.hot-room.nodes", 16, 1, 100_000),
                        s.intIn("notify.fanout.hot-room.events-per-second", 100, 1, 1_000_000),
                        s.duration("notify.fanout.hot-room.hold", Duration.ofMinutes(5), Duration.ZERO, Duration.ofDays(1))),
                s.intIn("notify.fanout.stream-partitions", 0, 0, 10_000),
                s.duration("notify.fanout.node-topics.refresh-interval", Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofHours(1)),
                s.duration("notify.fanout.node-topics.check-timeout", Duration.ofSeconds(1), Duration.ofMillis(10), Duration.ofSeconds(30)),
                s.duration("notify.fanout.node-topics.missing-ttl", Duration.ofSeconds(10), Duration.ZERO, Duration.ofHours(1)),
                s.duration("notify.fanout.shutdown-timeout", Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofMinutes(10)),
                s.intIn("notify.fanout.thread-restarts", 5, 0, 1000),
                s.duration("notify.fanout.thread-restart-window", Duration.ofMinutes(10), Duration.ofSeconds(1), Duration.ofDays(1)),
                s.duration("notify.fanout.unassigned-alarm", Duration.ofSeconds(60), Duration.ofSeconds(5), Duration.ofHours(1)),
                s.duration("notify.fanout.session-timeout", DEFAULT_SESSION_TIMEOUT, Duration.ofSeconds(6), Duration.ofMinutes(5)),
                shared.redisUri(),
                shared.redisCluster(),
                shared.registryKeyPrefix(),
                s.string("notify.fanout.query.host", "0.0.0.0"),
                s.intIn("notify.fanout.query.port", 8090, 0, 65535),
                s.string("notify.fanout.query.advertised-host", "127.0.0.1"),
                ServiceToken.list(s, QUERY_TOKENS),
                s.withPrefix("notify.fanout.streams."),
                shared.kafkaClient(),
                s.string("notify.fanout.management-host", s.string("notify.fanout.query.host", "0.0.0.0")),
                s.intIn("notify.fanout.management-port",
                        OpsEndpoints.defaultManagementPort(s.intIn("notify.fanout.query.port", 8090, 0, 65535)), 0, 65535),
                TlsSettings.load(s, "notify.fanout").orElse(null));
    }

    /** The inbox bounds of each kind of stream (users: {@code inbox.max-*}; rooms and broadcast: their own). */
    public InboxLimits inboxLimits() {
        return new InboxLimits(new InboxLimits.Limit(inboxMaxEvents, inboxMaxAge), roomInbox, broadcastInbox);
    }

    /** Whether stream threads commit on catch-up: asked for ({@code commit-on-catch-up}) and under exactly_once_v2. */
    public boolean commitsOnCatchUp() {
        return commitOnCatchUp && processingGuarantee == ProcessingGuarantee.EXACTLY_ONCE_V2;
    }

    /** The effective Kafka Streams application.id: the topic prefix, then the configured id. */
    public String streamsApplicationId() {
        return topicPrefix + applicationId;
    }

    public TopicCatalog topics() {
        return TopicCatalog.of(topicPrefix);
    }

    /** A copy with other Kafka Streams overrides (tests: e.g. a smaller max.block.ms). */
    public FanoutConfig withStreamsOverrides(Map<String, String> overrides) {
        return new FanoutConfig(applicationId, bootstrapServers, topicPrefix, dedupWindow, inboxMaxEvents, inboxMaxAge, roomInbox, broadcastInbox,
                inboxSweepInterval, inboxSweepStreams, inboxSweepMaxDeletes, inboxState, fallback, pushMaxRegistrations, commitInterval, commitOnCatchUp, linger,
                processingGuarantee,
                standbyReplicas, streamThreads, cacheMaxBytes, stateDir, routeTimeout, hotRooms, streamPartitions,
                nodeTopicsRefreshInterval, nodeTopicsCheckTimeout, nodeTopicsMissingTtl, shutdownTimeout, threadRestarts,
                threadRestartWindow, unassignedAlarm, sessionTimeout, redisUri, redisCluster, registryKeyPrefix,
                queryHost, queryPort, queryAdvertisedHost, queryTokens, overrides, kafkaClient, managementHost, managementPort, tls);
    }

    /** A copy listening on {@code port} (the port a port-0 query listener actually bound). */
    public FanoutConfig withQueryPort(int port) {
        return new FanoutConfig(applicationId, bootstrapServers, topicPrefix, dedupWindow, inboxMaxEvents, inboxMaxAge, roomInbox, broadcastInbox,
                inboxSweepInterval, inboxSweepStreams, inboxSweepMaxDeletes, inboxState, fallback, pushMaxRegistrations, commitInterval, commitOnCatchUp, linger,
                processingGuarantee,
                standbyReplicas, streamThreads, cacheMaxBytes, stateDir, routeTimeout, hotRooms, streamPartitions,
                nodeTopicsRefreshInterval, nodeTopicsCheckTimeout, nodeTopicsMissingTtl, shutdownTimeout, threadRestarts,
                threadRestartWindow, unassignedAlarm, sessionTimeout, redisUri, redisCluster, registryKeyPrefix,
                queryHost, port, queryAdvertisedHost, queryTokens, streamsOverrides, kafkaClient, managementHost, managementPort, tls);
    }
}
