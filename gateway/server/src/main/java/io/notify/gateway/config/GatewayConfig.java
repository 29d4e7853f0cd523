package io.notify.gateway.config;

import io.notify.common.auth.ServiceToken;
import io.notify.common.config.ConfigException;
import io.notify.common.config.PlatformSettings;
import io.notify.common.config.Redacted;
import io.notify.common.config.Settings;
import io.notify.common.http.OpsEndpoints;
import io.notify.common.tls.TlsSettings;
import io.notify.gateway.rooms.RoomPatterns;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.PresenceFrame;
import io.notify.protocol.frame.ResumeFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.Endpoints;
import io.notify.schemas.topic.TopicCatalog;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything a gateway node can be told, read in one place ({@link #load}) with defaults and
 * bounds; every error names its key. Keys are documented in docs/gateway.md; each can also be set
 * as an environment variable ({@code notify.gateway.node-id} → {@code NOTIFY_GATEWAY_NODE_ID}).
 *
 * @param nodeId         stable node id (e.g. the pod name): names the node topic and the registry members
 * @param jwt            how handshake tokens are verified
 * @param allowedOrigins exact {@code Origin} values a browser may connect from
 * @param requireOrigin  refuse handshakes without an {@code Origin} header (browser-only deployments)
 * @param acceptBacklog  the listener's accept queue (the kernel caps it at {@code net.core.somaxconn}):
 *                       a reconnect storm beyond it costs the clients SYN retransmissions (1 s and more)
 * @param limits         per-connection and per-node bounds
 * @param rooms          who may join which room, and how many subscriptions a connection holds
 * @param inbox          the end-user inbox API and the receipts of {@code ack} frames ({@code notify.gateway.inbox.*})
 * @param collapse       the durable event types a catching-up client gets collapsed by collapse key
 *                       ({@code notify.gateway.collapse.types}; empty: off)
 * @param tickets        connect tickets ({@code POST /v1/tickets})
 * @param queryUrls      base URLs of the fanout-streams query API, tried in turn
 * @param queryToken     the service token sent to the query API as {@code Authorization: Bearer <token>}
 * @param resumeBatching how concurrent resume fetches are coalesced into batch requests
 * @param maxConnectionLifetime    connections are closed with 4010 (recycled) after at most this long; zero: never
 * @param connectionLifetimeJitter each connection's lifetime is {@code maxConnectionLifetime} minus a uniform
 *                                 random part of up to this, so one node's connections do not all leave at once
 * @param managementHost where the management listener ({@code /metrics}, {@code /healthz}, {@code /readyz}) binds;
 *                       default the client listener's host
 * @param managementPort its port, default the client port + 100 (8181; any free port when the client port is 0);
 *                       must differ from the client port
 * @param kafkaClient    Kafka client properties for the node's consumer and admin client
 *                       ({@code notify.kafka.client.*}, {@link PlatformSettings#kafkaClient()})
 * @param tls            {@code notify.gateway.tls.*}: both listeners speak HTTPS (WSS, SSE over HTTPS) with this
 *                       reloaded certificate; null: plain HTTP
 * @param queryCaFile    {@code notify.gateway.query-ca-file}: a PEM file of the CA (or certificate) an https
 *                       query URL is trusted by, instead of the JVM's trust store; null: the JVM's
 */
public record GatewayConfig(
        String nodeId,
        String host,
        int port,
        int ioThreads,
        int acceptBacklog,
        String bootstrapServers,
        String redisUri,
        boolean redisCluster,
        String topicPrefix,
        String registryKeyPrefix,
        int nodeTopicPartitions,
        JwtSettings jwt,
        Set<String> allowedOrigins,
        boolean requireOrigin,
        Limits limits,
        Tickets tickets,
        Rooms rooms,
        InboxSettings inbox,
        CollapseSettings collapse,
        Duration pingInterval,
        Duration pongTimeout,
        Duration resumeTimeout,
        Duration sseKeepAlive,
        Duration sseRetry,
        Duration sweepInterval,
        Duration drainWindow,
        Duration drainGrace,
        List<URI> queryUrls,
        ServiceToken queryToken,
        Duration queryTimeout,
        int queryPageSize,
        Duration resumeRetryMax,
        Duration resumeGiveUp,
        ResumeBatching resumeBatching,
        Duration recheckAfter,
        Duration recheckInterval,
        Duration recheckGrace,
        Duration maxConnectionLifetime,
        Duration connectionLifetimeJitter,
        Map<String, String> kafkaClient,
        String managementHost,
        int managementPort,
        TlsSettings tls,
        Path queryCaFile) {

    /** Secrets shown as {@code ***} ({@link Redacted}). */
    @Override
    public String toString() {
        return Redacted.toString(this);
    }

    /**
     * Resume batching (docs/gateway.md, "Resume batching"): concurrent fetches wait at most
     * {@code linger} (or until a request slot frees up) and go out as one {@code POST /v1/streams:events}
     * of at most {@code maxBatch} streams; at most {@code maxInFlight} such requests at a time; at most
     * {@code maxQueue} fetches wait, more are refused (and retried by their session).
     */
    public record ResumeBatching(int maxBatch, Duration linger, int maxInFlight, int maxQueue) {
    }

    /**
     * How tokens are verified: exactly one of a JWKS file or a JWKS URL (production) or an HMAC
     * secret (dev, explicitly configured) — never two, so an HMAC key can never verify a token meant
     * for an RSA/EC key.
     *
     * @param jwks the JWKS URL and how it is fetched, or null
     */
    public record JwtSettings(Path jwksFile, RemoteJwks jwks, String hmacSecret, String issuer, String audience,
                              Duration clockSkew) {

        /** Secrets shown as {@code ***} ({@link Redacted}). */
        @Override
        public String toString() {
            return Redacted.toString(this);
        }
        public JwtSettings {
            int sources = (jwksFile == null ? 0 : 1) + (jwks == null ? 0 : 1) + (hmacSecret == null ? 0 : 1);
            if (sources != 1) {
                throw new ConfigException(jwks != null ? "notify.gateway.jwt.jwks-url" : "notify.gateway.jwt.jwks-file",
                        "set exactly one of notify.gateway.jwt.jwks-file, notify.gateway.jwt.jwks-url and notify.gateway.jwt.hmac-secret");
            }
            if (hmacSecret != null && hmacSecret.length() < 32) {
                throw new ConfigException("notify.gateway.jwt.hmac-secret", "must be at least 32 characters (256 bits)");
            }
        }
    }

    /** Bounds; each one is counted in a metric when hit (docs/gateway.md, "Limits"). */
    public record Limits(
            int maxFrameBytes,
            int maxMessageFrames,
            Duration messageTimeout,
            double inboundRatePerSecond,
            int inboundBurst,
            int maxConnectionsPerUser,
            double handshakeRatePerSecond,
            int handshakeBurst,
            Duration requestHeaderTimeout,
            int queueMaxMessages,
            long queueMaxBytes,
            int pendingMaxEvents,
            Duration acceptMaxLag) {
    }

    /**
     * Connect tickets (docs/gateway.md, "Connect tickets"): each is valid for {@code ttl} (or until
     * its token's expiry, if sooner); at most {@code maxHeld} are held in the node's memory.
     */
    public record Tickets(Duration ttl, int maxHeld) {
    }

    /**
     * Rooms and broadcast (docs/gateway.md, "Rooms and broadcast"): rooms whose names match
     * {@code publicRooms} may be joined by any connection, the others only as the token's
     * {@code rooms} claim allows; a connection holds at most {@code maxSubscriptions} subscriptions
     * (rooms and {@code b:all}), so that a {@code resume} with the user's stream and every one of
     * them fits its 100 entries; presence (who is in a room, join and leave events) is on for the rooms
     * whose names match {@code presence}, answered {@code presencePageMax} members a page at most; a
     * user's last leave of a room is announced only after {@code presenceLinger} away (a return within
     * it announces nothing), which bounds one user's join/leave announcements to two per linger.
     */
    public record Rooms(RoomPatterns publicRooms, int maxSubscriptions, RoomPatterns presence, int presencePageMax,
                        Duration presenceLinger) {
        public static final int MAX_SUBSCRIPTIONS = ResumeFrame.MAX_STREAMS - 1;
    }

    /** The setting that holds the query API's service token. */
    public static final String QUERY_TOKEN = "notify.gateway.query-token";

    public GatewayConfig {
        Endpoints.requireNodeId(nodeId);
        TopicCatalog.of(topicPrefix).node(nodeId);
        allowedOrigins = Set.copyOf(allowedOrigins);
        collapse = collapse == null ? CollapseSettings.off() : collapse;
        kafkaClient = Map.copyOf(kafkaClient);
        if (managementPort != 0 && managementPort == port) {
            throw new ConfigException("notify.gateway.management-port", "must differ from notify.gateway.port");
        }
        queryUrls = List.copyOf(queryUrls);
        if (queryUrls.isEmpty()) {
            throw new ConfigException("notify.gateway.query-url", "at least one base URL of the query API is required");
        }
        if (queryCaFile != null && queryUrls.stream().noneMatch(u -> "https".equals(u.getScheme()))) {
            throw new ConfigException("notify.gateway.query-ca-file", "only applies to https query URLs (notify.gateway.query-url)");
        }
        if (queryToken == null) {
            throw new ConfigException(QUERY_TOKEN, "the query API answers only a caller with a service token");
        }
        if (pingInterval.toMillis() < WelcomeFrame.MIN_PING_INTERVAL_MS || pingInterval.toMillis() > WelcomeFrame.MAX_PING_INTERVAL_MS) {
            throw new ConfigException("notify.gateway.ping-interval", "must be between 1s and 300s");
        }
        if (pongTimeout.compareTo(pingInterval) <= 0) {
            throw new ConfigException("notify.gateway.pong-timeout", "must be longer than notify.gateway.ping-interval");
        }
        if (connectionLifetimeJitter.compareTo(maxConnectionLifetime) > 0) {
            throw new ConfigException("notify.gateway.connection-lifetime-jitter",
                    "must not exceed notify.gateway.max-connection-lifetime");
        }
    }

    /**
     * How long one query-API fetch (an anchor read, a resume or a recheck) may take in all: each
     * base URL tried once within {@code query-timeout}, plus one more timeout for the wait in the
     * resume batcher. The batcher bounds each batch by it and a session each of its fetches, so the
     * two agree.
     */
    public Duration fetchDeadline() {
        return queryTimeout.multipliedBy(queryUrls.size() + 1L);
    }

    public static GatewayConfig load(Settings s) {
        String nodeId = s.required("notify.gateway.node-id");
        try {
            Endpoints.requireNodeId(nodeId);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("notify.gateway.node-id", e.getMessage());
        }
        PlatformSettings shared = PlatformSettings.load(s);
        Duration ping = s.duration("notify.gateway.ping-interval", Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofMinutes(5));
        Duration lifetime = s.duration("notify.gateway.max-connection-lifetime", Duration.ZERO, Duration.ZERO, Duration.ofDays(30));
        if (!lifetime.isZero() && lifetime.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new ConfigException("notify.gateway.max-connection-lifetime", "must be 0 (off) or at least 1m");
        }
        return new GatewayConfig(
                nodeId,
                s.string("notify.gateway.host", "0.0.0.0"),
                s.intIn("notify.gateway.port", 8081, 0, 65535),
                s.intIn("notify.gateway.io-threads", Math.max(2, Runtime.getRuntime().availableProcessors()), 1, 256),
                s.intIn("notify.gateway.accept-backlog", 8192, 1, 65535),
                shared.bootstrapServers(),
                shared.redisUri(),
                shared.redisCluster(),
                shared.topicPrefix(),
                shared.registryKeyPrefix(),
                s.intIn("notify.gateway.node-topic-partitions", 3, 1, 1000),
                new JwtSettings(
                        pathOrNull(s.raw("notify.gateway.jwt.jwks-file")),
                        RemoteJwks.load(s),
                        s.raw("notify.gateway.jwt.hmac-secret"),
                        s.required("notify.gateway.jwt.issuer"),
                        s.required("notify.gateway.jwt.audience"),
                        s.duration("notify.gateway.jwt.clock-skew", Duration.ofSeconds(30), Duration.ZERO, Duration.ofMinutes(5))),
                Set.copyOf(s.list("notify.gateway.allowed-origins")),
                s.bool("notify.gateway.require-origin", false),
                new Limits(
                        s.intIn("notify.gateway.max-frame-bytes", FrameCodec.MAX_CLIENT_FRAME_CHARS, 1024, FrameCodec.MAX_CLIENT_FRAME_CHARS),
                        s.intIn("notify.gateway.max-message-frames", 16, 1, 1024),
                        s.duration("notify.gateway.message-timeout", Duration.ofSeconds(10), Duration.ofMillis(100), Duration.ofMinutes(5)),
                        s.longIn("notify.gateway.inbound-rate", 10, 1, 10_000),
                        s.intIn("notify.gateway.inbound-burst", 20, 1, 100_000),
                        s.intIn("notify.gateway.max-connections-per-user", 10, 1, 1000),
                        s.longIn("notify.gateway.handshake-rate", 500, 1, 1_000_000),
                        s.intIn("notify.gateway.handshake-burst", 1000, 1, 10_000_000),
                        s.duration("notify.gateway.request-header-timeout", Duration.ofSeconds(10), Duration.ofMillis(100), Duration.ofMinutes(5)),
                        s.intIn("notify.gateway.queue-max-messages", 1024, 4, 1_000_000),
                        s.longIn("notify.gateway.queue-max-bytes", 1024 * 1024, 4 * FrameCodec.MAX_SERVER_FRAME_CHARS, 1L << 30),
                        s.intIn("notify.gateway.pending-max-events", 1000, 1, 1_000_000),
                        s.duration("notify.gateway.accept-max-lag", Duration.ofMillis(500), Duration.ZERO, Duration.ofSeconds(10))),
                new Tickets(
                        s.duration("notify.gateway.ticket-ttl", Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofMinutes(5)),
                        s.intIn("notify.gateway.max-tickets", 100_000, 1, 10_000_000)),
                new Rooms(
                        patterns(s, "notify.gateway.rooms.public"),
                        s.intIn("notify.gateway.rooms.max-subscriptions", 50, 0, Rooms.MAX_SUBSCRIPTIONS),
                        patterns(s, "notify.gateway.rooms.presence"),
                        s.intIn("notify.gateway.rooms.presence-page-max", 100, 1, PresenceFrame.MAX_LIMIT),
                        s.duration("notify.gateway.rooms.presence-linger", Duration.ofSeconds(2), Duration.ZERO, Duration.ofMinutes(1))),
                InboxSettings.load(s),
                CollapseSettings.load(s),
                ping,
                s.duration("notify.gateway.pong-timeout", ping.multipliedBy(2).plusSeconds(5), Duration.ofSeconds(1), Duration.ofMinutes(15)),
                s.duration("notify.gateway.resume-timeout", Duration.ofSeconds(10), Duration.ofMillis(100), Duration.ofMinutes(5)),
                s.duration("notify.gateway.sse-keepalive", Duration.ofSeconds(5), Duration.ofMillis(100), Duration.ofMinutes(5)),
                s.duration("notify.gateway.sse-retry", Duration.ofSeconds(1), Duration.ZERO, Duration.ofMinutes(5)),
                s.duration("notify.gateway.sweep-interval", Duration.ofSeconds(1), Duration.ofMillis(10), Duration.ofSeconds(30)),
                s.duration("notify.gateway.drain-window", Duration.ofSeconds(30), Duration.ZERO, Duration.ofHours(1)),
                s.duration("notify.gateway.drain-grace", Duration.ofSeconds(5), Duration.ZERO, Duration.ofMinutes(10)),
                queryUrls(s),
                ServiceToken.of(QUERY_TOKEN, s.required(QUERY_TOKEN)),
                s.duration("notify.gateway.query-timeout", Duration.ofSeconds(5), Duration.ofMillis(100), Duration.ofMinutes(1)),
                s.intIn("notify.gateway.query-page-size", 500, 1, 1000),
                s.duration("notify.gateway.resume-retry-max", Duration.ofSeconds(5), Duration.ofMillis(10), Duration.ofMinutes(1)),
                s.duration("notify.gateway.resume-give-up", Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofHours(1)),
                new ResumeBatching(
                        s.intIn("notify.gateway.resume-batch-max", 256, 1, 500),
                        s.duration("notify.gateway.resume-batch-linger", Duration.ofMillis(2), Duration.ZERO, Duration.ofSeconds(1)),
                        s.intIn("notify.gateway.resume-batch-in-flight", 4, 1, 64),
                        s.intIn("notify.gateway.resume-queue-max", 20_000, 1, 1_000_000)),
                s.duration("notify.gateway.recheck-after", Duration.ofSeconds(2), Duration.ZERO, Duration.ofMinutes(10)),
                s.duration("notify.gateway.recheck-interval", Duration.ofSeconds(30), Duration.ZERO, Duration.ofHours(24)),
                s.duration("notify.gateway.recheck-grace", Duration.ofSeconds(2), Duration.ZERO, Duration.ofMinutes(1)),
                lifetime,
                s.duration("notify.gateway.connection-lifetime-jitter", lifetime.dividedBy(5), Duration.ZERO, Duration.ofDays(30)),
                shared.kafkaClient(),
                s.string("notify.gateway.management-host", s.string("notify.gateway.host", "0.0.0.0")),
                s.intIn("notify.gateway.management-port",
                        OpsEndpoints.defaultManagementPort(s.intIn("notify.gateway.port", 8081, 0, 65535)), 0, 65535),
                TlsSettings.load(s, "notify.gateway").orElse(null),
                pathOrNull(s.raw("notify.gateway.query-ca-file")));
    }

    private static RoomPatterns patterns(Settings s, String key) {
        try {
            return RoomPatterns.of(s.list(key));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(key, e.getMessage());
        }
    }

    private static Path pathOrNull(String raw) {
        return raw == null ? null : Path.of(raw);
    }

    private static List<URI> queryUrls(Settings s) {
        List<String> raw = s.list("notify.gateway.query-url");
        if (raw.isEmpty()) {
            throw new ConfigException("notify.gateway.query-url", "is required (or set NOTIFY_GATEWAY_QUERY_URL)");
        }
        return raw.stream().map(u -> {
            try {
                URI uri = URI.create(u.endsWith("/") ? u.substring(0, u.length() - 1) : u);
                if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                    throw new IllegalArgumentException("scheme must be http or https");
                }
                return uri;
            } catch (IllegalArgumentException e) {
                throw new ConfigException("notify.gateway.query-url", "'" + u + "' is not a base URL: " + e.getMessage());
            }
        }).toList();
    }
}
