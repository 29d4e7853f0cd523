package io.notify.cli.bench;

import io.lettuce.core.api.sync.RedisCommands;
import io.notify.schemas.topic.TopicCatalog;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Node;

/**
 * One measured run of fanout-streams under one processing guarantee, in a world of its own: a
 * fresh topic prefix (so fresh topics, application id, consumer group and registry keys), the
 * users registered on two nodes, the backlog pre-produced, then the app's instances (one group)
 * started on it. Routed events/s and Redis reads come from {@link RoutingWindow} over the sum of
 * every instance's counters; query reads/s from {@link QueryLoad} against the first instance once
 * everything is routed.
 */
final class FanoutRouteRun {

    /** What one run is told: sizes, timings and bounds. */
    record Plan(long events, int users, FanoutEvents eventBytes, Duration lease, Duration commitInterval,
                Duration deadline, Duration querySeconds, int queryConcurrency, int instances) {

        /** Routed outcomes to wait for: one per recipient of every event. */
        long routings() {
            return events * eventBytes.recipients();
        }
    }

    /**
     * One run's numbers (medians over runs are in {@link FanoutReport}).
     *
     * @param eventsPerSecond routed events/s: {@code routingsPerSecond} ÷ recipients per event
     * @param routingsPerSecond routed recipients/s (DeliveryMessages + UndeliveredEvents; one per recipient here)
     * @param startSeconds   from starting the child JVMs until every {@code /readyz} (Kafka Streams RUNNING)
     * @param undelivered    UndeliveredEvents by reason (registry_unavailable: a lookup exceeded the route timeout)
     * @param redisCommands  calls per Redis command during routing (ready → all routed), all clients
     * @param invalidationsPerRouting cache invalidations Redis pushed to the router (keys it had read, then
     *                       written by someone: registrations, renewals) per routed recipient, whole run; unlike
     *                       Redis reads it excludes each user's unavoidable first read
     * @param stateBytes     the app's state as the broker holds it once everything is routed: the bytes of its
     *                       changelog topics (dedup, heads, inbox), which is what a restore reads
     */
    record Result(String guarantee, int run, long events, double eventsPerSecond, double routingsPerSecond,
                  double routingSeconds,
                  double steadyEventsPerSecond, double startSeconds, long delivered, Map<String, Long> undelivered,
                  double cacheHitRatio,
                  double redisReadsPerEvent, double steadyRedisReadsPerEvent,
                  double redisCommandsPerEvent, double steadyRedisCommandsPerEvent,
                  Map<String, Long> redisCommands, LoadResult query, long stateBytes, double invalidationsPerRouting) {
    }

    private static final String UNDELIVERED = "notify_fanout_undelivered_total";
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

    private final String bootstrap;
    private final String redisUri;
    private final Admin admin;
    private final RedisCommands<String, String> redis;
    private final Consumer<String> progress;

    FanoutRouteRun(FanoutBackends backends, Consumer<String> progress) {
        this.bootstrap = backends.bootstrapServers();
        this.redisUri = backends.redisUri();
        this.admin = backends.admin();
        this.redis = backends.stats();
        this.progress = progress;
    }

    Result run(Plan plan, String prefix, String guarantee, int run, Path dir) throws Exception {
        TopicCatalog topics = TopicCatalog.of(prefix);
        createTopics(admin, topics);
        progress.accept("registering " + plan.users() + " users on " + BenchConnections.NODES);
        try (BenchConnections ignored = BenchConnections.register(redisUri, prefix, plan.users(), plan.lease())) {
            progress.accept("pre-producing " + plan.events() + " events to " + topics.events().name());
            EventPreload.produce(bootstrap, topics.events().name(), plan.eventBytes(), plan.events(), plan.users(), run,
                    plan.deadline());
            progress.accept("starting " + plan.instances() + " fanout-streams instance(s) (" + guarantee + ", child JVMs -Xmx512m)");
            long launched = System.nanoTime();
            try (FanoutInstance.Group apps = FanoutInstance.Group.start(plan.instances(), bootstrap, redisUri, prefix,
                    guarantee, plan.commitInterval(), dir)) {
                apps.awaitReady(Duration.ofSeconds(120));
                double startSeconds = (System.nanoTime() - launched) / 1e9;
                CommandStats before = CommandStats.parse(redis.info("commandstats"));
                List<RoutingWindow.Sample> samples = awaitRouted(apps, redis, plan.routings(), plan.deadline(), progress);
                RoutingWindow w = RoutingWindow.of(samples, plan.routings());
                List<PrometheusText> end = apps.metrics();
                CommandStats commands = CommandStats.parse(redis.info("commandstats"));
                long stateBytes = changelogBytes(admin, prefix);
                int r = plan.eventBytes().recipients();
                progress.accept(String.format("routed %,d events (%,d recipients) in %.1f s = %,.0f events/s; querying for %d s",
                        plan.events(), plan.routings(), w.seconds(), w.eventsPerSecond() / r, plan.querySeconds().toSeconds()));
                LoadResult query = ChildLoad.run(QueryLoad.class, List.of("127.0.0.1:" + apps.first().port(),
                        Integer.toString(plan.users()), Long.toString(plan.querySeconds().toMillis()),
                        Integer.toString(plan.queryConcurrency())), Map.of(QueryLoad.TOKEN_ENV, apps.queryToken()), dir.resolve("query.log"),
                        plan.querySeconds().plusSeconds(60));
                double hits = PrometheusText.sum(end, "notify_registry_lookups_total", "outcome", "cache_hit");
                double misses = PrometheusText.sum(end, "notify_registry_lookups_total", "outcome", "cache_miss");
                return new Result(guarantee, run, plan.events(), w.eventsPerSecond() / r, w.eventsPerSecond(), w.seconds(),
                        w.steadyEventsPerSecond() / r, startSeconds, (long) PrometheusText.sum(end, "notify_fanout_deliveries_total"),
                        Map.of("no_live_connection", (long) PrometheusText.sum(end, UNDELIVERED, "reason", "no_live_connection"),
                                "registry_unavailable", (long) PrometheusText.sum(end, UNDELIVERED, "reason", "registry_unavailable")),
                        hits + misses == 0 ? 0 : hits / (hits + misses),
                        w.readsPerEvent(), w.steadyReadsPerEvent(), w.commandsPerEvent(), w.steadyCommandsPerEvent(),
                        commands.minus(before).calls(), query, stateBytes,
                        PrometheusText.sum(end, "notify_registry_cache_invalidations_total", "scope", "key") / plan.routings());
            }
        }
    }

    /** Bytes on the broker of every changelog topic of the run's application id (it starts with the prefix). */
    static long changelogBytes(Admin admin, String prefix) throws Exception {
        List<Integer> brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).stream().map(Node::id).toList();
        long total = 0;
        for (var dirs : admin.describeLogDirs(brokers).allDescriptions().get(30, TimeUnit.SECONDS).values()) {
            for (var dir : dirs.values()) {
                for (var e : dir.replicaInfos().entrySet()) {
                    String topic = e.getKey().topic();
                    if (topic.startsWith(prefix) && topic.endsWith("-changelog")) {
                        total += e.getValue().size();
                    }
                }
            }
        }
        return total;
    }

    /**
     * Polls every {@code /metrics} and Redis until {@code routings} recipients are routed (deliveries
     * plus undelivered records), within {@code bound}; the first sample is the ready one. Fails on
     * any DLQ record.
     */
    static List<RoutingWindow.Sample> awaitRouted(FanoutInstance.Group apps, RedisCommands<String, String> redis, long routings,
                                                  Duration bound, Consumer<String> progress) throws Exception {
        List<RoutingWindow.Sample> samples = new ArrayList<>();
        long deadline = System.nanoTime() + bound.toNanos();
        long nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
        while (true) {
            CommandStats commands = CommandStats.parse(redis.info("commandstats"));
            List<PrometheusText> m = apps.metrics();
            double routed = PrometheusText.sum(m, "notify_fanout_deliveries_total") + PrometheusText.sum(m, UNDELIVERED);
            samples.add(new RoutingWindow.Sample(System.nanoTime(), routed,
                    PrometheusText.sum(m, "notify_registry_lookup_redis_latency_seconds_count"), commands.routerReads()));
            double dlq = PrometheusText.sum(m, "notify_fanout_dlq_total");
            if (dlq > 0) {
                throw new IOException((long) dlq + " benchmark events went to the DLQ; see " + apps.logFiles());
            }
            if (routed >= routings) {
                return samples;
            }
            long now = System.nanoTime();
            if (now - deadline > 0) {
                throw new IOException(String.format("only %,.0f of %,d recipients routed within %s; see %s", routed,
                        routings, bound, apps.logFiles()));
            }
            if (now - nextProgress > 0) {
                progress.accept(String.format("routed %,.0f of %,d (%.0f%%)", routed, routings, 100 * routed / routings));
                nextProgress = now + PROGRESS_EVERY.toNanos();
            }
            TimeUnit.MILLISECONDS.sleep(POLL.toMillis()); // poll interval of a bounded wait on the app's counters
        }
    }

    /** notify.events with 6 partitions as the brief's production-like shape; one partition per node topic. */
    static void createTopics(Admin admin, TopicCatalog topics) throws Exception {
        List<NewTopic> all = new ArrayList<>(List.of(
                new NewTopic(topics.events().name(), 6, (short) 1),
                new NewTopic(topics.eventsDlq().name(), 1, (short) 1),
                new NewTopic(topics.streamLog().name(), 6, (short) 1),
                new NewTopic(topics.undelivered().name(), 3, (short) 1)));
        for (String node : BenchConnections.NODES) {
            all.add(new NewTopic(topics.node(node).name(), 1, (short) 1));
        }
        BenchTopics.create(admin, all);
    }
}
