package io.notify.ingest;

import io.notify.common.auth.BearerKeys;
import io.notify.common.config.ConfigException;
import io.notify.common.config.PlatformSettings;
import io.notify.common.http.OpsEndpoints;
import io.notify.common.config.Redacted;
import io.notify.common.config.Settings;
import io.notify.common.tls.TlsSettings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Everything the ingest service can be told, with defaults and bounds, read in one place.
 * Keys are documented in docs/operations.md; each can also be set as an environment variable
 * ({@code notify.ingest.port} → {@code NOTIFY_INGEST_PORT}).
 *
 * @param apiKeys producer name → API key; a request must carry one of the keys as a bearer token
 * @param createTopic create {@code notify.events} at start when missing (dev convenience; production
 *                    provisions topics with their own retention and replication)
 * @param corsOrigins exact browser origins ({@code scheme://host[:port]}) that may call the API with
 *                    CORS; empty (the default) turns CORS off
 * @param kafkaClient Kafka client properties for every client of ingest ({@code notify.kafka.client.*},
 *                    {@link PlatformSettings#kafkaClient()})
 * @param managementHost where the management listener ({@code /metrics}, {@code /healthz}, {@code /readyz}) binds;
 *                    default the listener's host
 * @param managementPort its port, default the listener's + 100 (8180; any free port when the listener's is 0);
 *                    must differ from the listener's
 * @param requestHeaderTimeout how long a connection may take, from accept or from its previous
 *                    request, to send a request's headers (slowloris; an idle keep-alive
 *                    connection is closed after it too)
 * @param tls         {@code notify.ingest.tls.*}: both listeners speak HTTPS with this reloaded certificate; null: plain HTTP
 */
public record IngestConfig(
        String host,
        int port,
        String bootstrapServers,
        String topicPrefix,
        Map<String, String> apiKeys,
        int maxEventBytes,
        int maxBatchBytes,
        int maxBatchItems,
        int maxInFlight,
        Duration dedupWindow,
        long dedupMaxEntries,
        Duration produceTimeout,
        Duration maxBlock,
        Duration readinessInterval,
        int ioThreads,
        int workerThreads,
        boolean createTopic,
        int topicPartitions,
        Set<String> corsOrigins,
        Map<String, String> producerOverrides,
        Duration requestHeaderTimeout,
        Map<String, String> kafkaClient,
        String managementHost,
        int managementPort,
        TlsSettings tls) {

    /** Secrets shown as {@code ***} ({@link Redacted}). */
    @Override
    public String toString() {
        return Redacted.toString(this);
    }

    /** A browser origin as it appears in an Origin header: http(s), a host or [IPv6], an optional port. */
    private static final Pattern ORIGIN = Pattern.compile("^https?://([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+])(:[0-9]{1,5})?$");

    public IngestConfig {
        if (apiKeys.isEmpty()) {
            throw new ConfigException("notify.ingest.api-keys", "at least one producer key is required (name:key,...)");
        }
        apiKeys = Map.copyOf(apiKeys);
        corsOrigins = Set.copyOf(corsOrigins);
        for (String origin : corsOrigins) {
            if (!ORIGIN.matcher(origin).matches()) {
                throw new ConfigException("notify.ingest.cors-origins",
                        "'" + origin + "' is not an origin: expected scheme://host[:port], no path, no wildcard");
            }
        }
        producerOverrides = Map.copyOf(producerOverrides);
        kafkaClient = Map.copyOf(kafkaClient);
        if (managementPort != 0 && managementPort == port) {
            throw new ConfigException("notify.ingest.management-port", "must differ from notify.ingest.port");
        }
        if (maxBatchBytes < maxEventBytes) {
            throw new ConfigException("notify.ingest.max-batch-bytes", "must be at least notify.ingest.max-event-bytes");
        }
    }

    public static IngestConfig load(Settings s) {
        PlatformSettings shared = PlatformSettings.load(s);
        return new IngestConfig(
                s.string("notify.ingest.host", "0.0.0.0"),
                s.intIn("notify.ingest.port", 8080, 0, 65535),
                shared.bootstrapServers(),
                shared.topicPrefix(),
                parseKeys(s.required("notify.ingest.api-keys")),
                s.intIn("notify.ingest.max-event-bytes", 96 * 1024, 1024, 1024 * 1024),
                s.intIn("notify.ingest.max-batch-bytes", 4 * 1024 * 1024, 1024, 64 * 1024 * 1024),
                s.intIn("notify.ingest.max-batch-items", 500, 1, 10_000),
                s.intIn("notify.ingest.max-in-flight", 10_000, 1, 1_000_000),
                s.duration("notify.ingest.dedup-window", Duration.ofMinutes(10), Duration.ZERO, Duration.ofDays(7)),
                s.longIn("notify.ingest.dedup-max-entries", 500_000, 0, 100_000_000),
                s.duration("notify.ingest.produce-timeout", Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofMinutes(5)),
                s.duration("notify.ingest.max-block", Duration.ofSeconds(2), Duration.ZERO, Duration.ofMinutes(1)),
                s.duration("notify.ingest.readiness-interval", Duration.ofSeconds(2), Duration.ofMillis(100), Duration.ofMinutes(1)),
                s.intIn("notify.ingest.io-threads", Math.max(2, Runtime.getRuntime().availableProcessors()), 1, 256),
                s.intIn("notify.ingest.worker-threads", 16, 1, 1024),
                s.bool("notify.topics.create", false),
                s.intIn("notify.topics.events.partitions", 6, 1, 10_000),
                Set.copyOf(s.list("notify.ingest.cors-origins")),
                s.withPrefix("notify.ingest.producer."),
                s.duration("notify.ingest.request-header-timeout", Duration.ofSeconds(10), Duration.ofMillis(100), Duration.ofMinutes(5)),
                shared.kafkaClient(),
                s.string("notify.ingest.management-host", s.string("notify.ingest.host", "0.0.0.0")),
                s.intIn("notify.ingest.management-port",
                        OpsEndpoints.defaultManagementPort(s.intIn("notify.ingest.port", 8080, 0, 65535)), 0, 65535),
                TlsSettings.load(s, "notify.ingest").orElse(null));
    }

    /** {@code name:key,name2:key2}; names label metrics and audit headers, keys stay secret. */
    static Map<String, String> parseKeys(String raw) {
        Map<String, String> keys = new LinkedHashMap<>();
        for (String entry : raw.split(",")) {
            String e = entry.trim();
            int colon = e.indexOf(':');
            if (colon <= 0 || colon == e.length() - 1) {
                throw new ConfigException("notify.ingest.api-keys", "expected name:key entries separated by commas");
            }
            String name = e.substring(0, colon);
            String key = e.substring(colon + 1);
            if (key.length() < BearerKeys.MIN_KEY_LENGTH) {
                throw new ConfigException("notify.ingest.api-keys",
                        "the key of '" + name + "' is shorter than " + BearerKeys.MIN_KEY_LENGTH + " characters");
            }
            if (keys.put(name, key) != null) {
                throw new ConfigException("notify.ingest.api-keys", "producer name '" + name + "' appears twice");
            }
        }
        return keys;
    }
}
