package io.notify.fanout;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.kafka.FilteredKafkaMetrics;
import io.notify.common.config.PlatformSettings;
import io.notify.common.http.OpsEndpoints;
import io.notify.common.metrics.KafkaMeters;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.fanout.recipients.RecipientPlacement;
import io.notify.fanout.routing.AdminNodeTopics;
import io.notify.fanout.routing.NodeTopics;
import io.notify.registry.RouteLookup;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running fan-out instance: the topology inside a {@link KafkaStreams}, plus the Admin
 * client that tells it which node topics exist. Lifecycle: {@link #start()} once, then
 * {@link #close()} (bounded by {@code notify.fanout.shutdown-timeout}). The query API reads the
 * stores through {@link #streams()} (see {@code InboxStores}). The registry is passed in and
 * closed with the app. A failed stream thread is replaced within a bounded budget
 * ({@link ThreadRestartPolicy}); past it the client shuts down (state ERROR) and the caller
 * decides whether to exit. Once a second a {@link TaskWatch} checks that the running instance
 * holds partitions (or standby tasks); its verdict is the instance's readiness ({@link #readiness()}).
 */
public final class FanoutApp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FanoutApp.class);
    /** Bound of reading notify.events' partition count at start. */
    /** How often the instance's task count is checked. */
    static final Duration TASK_CHECK_INTERVAL = Duration.ofSeconds(1);
    /** Kafka Streams' per-store metrics (RocksDB and transactional-store gauges among them). */
    static final String STORE_METRICS_GROUP = "stream-state-metrics";

    private final FanoutConfig config;
    private final RouteLookup registry;
    private final FanoutMetrics metrics;
    private final Admin admin;
    private final NodeTopics nodeTopics;
    private final KafkaStreams streams;
    private final KafkaMeters streamsMetrics;
    private final RecipientPlacement placement;
    private final TaskWatch tasks;
    private final ScheduledExecutorService taskCheck = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "notify-fanout-task-watch");
        t.setDaemon(true);
        return t;
    });

    public FanoutApp(FanoutConfig config, RouteLookup registry, FanoutMetrics metrics, Clock clock) {
        this(config, registry, metrics, clock, admin -> new AdminNodeTopics(admin, config.topics(),
                config.nodeTopicsRefreshInterval(), config.nodeTopicsCheckTimeout(), config.nodeTopicsMissingTtl(), clock));
    }

    /** For tests: the node-topic directory is built from the app's Admin client by {@code nodeTopicsFactory}. */
    FanoutApp(FanoutConfig config, RouteLookup registry, FanoutMetrics metrics, Clock clock,
              Function<Admin, NodeTopics> nodeTopicsFactory) {
        this.config = config;
        this.registry = registry;
        this.metrics = metrics;
        this.admin = Admin.create(PlatformSettings.kafkaProps(config.bootstrapServers(), config.kafkaClient()));
        this.nodeTopics = nodeTopicsFactory.apply(admin);
        Properties props = FanoutStreamsConfig.properties(config, nodeTopics, metrics, registry);
        this.placement = TopicLayout.prepare(admin, config);
        Topology topology = FanoutTopology.build(config, placement, registry, nodeTopics, clock, metrics);
        this.streams = new KafkaStreams(topology, props);
        // Streams' and its clients' meters on /metrics: kafka_consumer_fetch_manager_records_lag is the input lag.
        // Without the per-store metrics: /metrics drops them anyway (KafkaSeries), and reading a closing
        // transactional store's gauge crashes the JVM (FilteredKafkaMetrics says why).
        this.streamsMetrics = KafkaMeters.bind(metrics.registry(), "fanout-streams",
                (refresh, every) -> new FilteredKafkaMetrics(streams::metrics, FanoutApp::notAStoreMetric, Tags.empty(), refresh, every));
        streams.setUncaughtExceptionHandler(new ThreadRestartPolicy(config.threadRestarts(),
                config.threadRestartWindow(), clock));
        this.tasks = new TaskWatch(config.unassignedAlarm(), System::nanoTime);
        Gauge.builder("notify.fanout.unassigned.seconds", tasks, TaskWatch::unassignedSeconds)
                .description("Seconds this running instance has held no task (0 while it holds one)")
                .register(metrics.registry());
    }

    public FanoutApp start() {
        LOG.info("starting fanout-streams: application.id={}, guarantee={}, commit interval={}, commit on catch-up: {}, "
                        + "stream threads={}, standby replicas={}, local recipient copies: {}", config.streamsApplicationId(),
                config.processingGuarantee().streamsValue(), config.commitInterval(),
                config.commitsOnCatchUp() ? "on" : "off",
                config.streamThreads(), config.standbyReplicas(),
                placement.partitions() > 0 ? "on (" + placement.partitions() + " partitions)" : "off");
        streams.start();
        long every = TASK_CHECK_INTERVAL.toMillis();
        taskCheck.scheduleWithFixedDelay(this::checkTasks, 0, every, TimeUnit.MILLISECONDS);
        return this;
    }

    private void checkTasks() {
        KafkaStreams.State state = streams.state();
        int held = 0;
        if (state.isRunningOrRebalancing()) {
            try {
                held = heldWork();
            } catch (RuntimeException e) {
                return; // threads changing under us: the next check counts again
            }
        }
        tasks.observe(state, held);
    }

    /** Partitions assigned to the stream threads' consumers plus standby tasks: what {@link TaskWatch} counts. */
    int heldWork() {
        return assignedPartitions() + streams.metadataForLocalThreads().stream().mapToInt(t -> t.standbyTasks().size()).sum();
    }

    /**
     * Partitions the stream threads' consumers hold now, from the consumers' own
     * {@code assigned-partitions} metric: live, and counting tasks still restoring, which the
     * thread metadata only lists after the thread's next transition to RUNNING.
     */
    private int assignedPartitions() {
        int assigned = 0;
        for (Map.Entry<MetricName, ? extends Metric> m : streams.metrics().entrySet()) {
            if (m.getKey().name().equals("assigned-partitions")
                    && m.getKey().group().equals("consumer-coordinator-metrics")
                    && m.getValue().metricValue() instanceof Number n) {
                assigned += n.intValue();
            }
        }
        return assigned;
    }

    /**
     * Ready while Kafka Streams is RUNNING (read now) and the last task check did not find the
     * instance without partitions and standby tasks for longer than {@code notify.fanout.unassigned-alarm}.
     * Reads only cached state, so {@code /readyz} asks it on the I/O thread; the check itself runs
     * once a second on its own thread (the ERROR log and the {@code notify_fanout_unassigned_seconds} gauge).
     */
    public OpsEndpoints.Readiness readiness() {
        return tasks.readiness(streams.state());
    }

    /** The Kafka Streams instance: state, store access ({@code InboxStores.headsQuery()}), metadata. */
    public KafkaStreams streams() {
        return streams;
    }

    /** Which recipient copies this instance sequences without the repartition hop. */
    public RecipientPlacement placement() {
        return placement;
    }

    public FanoutConfig config() {
        return config;
    }

    public FanoutMetrics metrics() {
        return metrics;
    }

    /** Stops processing, leaves the group and closes clients, waiting at most the shutdown timeout. */
    @Override
    public void close() {
        taskCheck.shutdownNow();
        streamsMetrics.close(); // first: no meter reads a store while Streams closes it
        boolean clean = streams.close(CloseOptions.timeout(config.shutdownTimeout())
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        if (!clean) {
            LOG.warn("Kafka Streams did not close within {}", config.shutdownTimeout());
        }
        if (nodeTopics instanceof AutoCloseable closeable) {
            closeQuietly(closeable);
        }
        admin.close(config.shutdownTimeout());
        registry.close();
    }

    /** Kafka Streams' per-store metrics (group {@code stream-state-metrics}) are not bound. */
    static boolean notAStoreMetric(MetricName name) {
        return !STORE_METRICS_GROUP.equals(name.group());
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.warn("closing {} failed", closeable, e);
        }
    }
}
