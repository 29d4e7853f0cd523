package io.notify.cli.bench;

import io.notify.cli.bench.gateway.ProcessCpu;
import io.notify.protocol.event.Fallback;
import io.notify.schemas.topic.TopicCatalog;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * One mode of one {@code bench fallback} run, in a world of its own (a fresh topic prefix: fresh
 * topics, application id, consumer group and registry keys): the backlog pre-produced to users
 * with no connection (so each event ends as one undelivered record), one fanout-streams instance
 * ({@value #GUARANTEE}) started on it, and its routed events/s measured from its counters as
 * {@code bench fanout} measures them ({@link FanoutRouteRun#awaitRouted}, {@link RoutingWindow}).
 * With fallbacks, the instance then stays up through the due burst ({@link FallbackDrain}).
 */
final class FallbackRun {

    static final String GUARANTEE = "exactly_once_v2";
    static final String BASELINE = "baseline";
    static final String FALLBACK = "fallback";

    /**
     * What every run is told.
     *
     * @param settings extra fanout-streams settings ({@code key=value}), e.g. the check interval
     */
    record Plan(long pending, int users, int eventBytes, Fallback fallback, Duration commitInterval, List<String> settings,
                Duration deadline) {
    }

    /**
     * One mode of one run.
     *
     * @param mode              {@value #BASELINE} (events without a fallback) or {@value #FALLBACK}
     * @param eventsPerSecond   routed events/s (undelivered records here: no user has a connection)
     * @param startSeconds      from starting the child JVM until {@code /readyz}
     * @param routingCpuSeconds the instance's CPU seconds from ready to every event routed
     * @param loadAverage       the machine's 1-minute load average when the mode started
     * @param drain             the fallbacks' numbers; null for the baseline
     */
    record Result(String mode, int run, long events, double eventsPerSecond, double routingSeconds, double startSeconds,
                  double routingCpuSeconds, double loadAverage, FallbackDrain.Drain drain) {
    }

    private final FanoutBackends backends;
    private final Consumer<String> progress;

    FallbackRun(FanoutBackends backends, Consumer<String> progress) {
        this.backends = backends;
        this.progress = progress;
    }

    Result run(Plan plan, String mode, String prefix, int run, Path dir) throws Exception {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        boolean withFallback = mode.equals(FALLBACK);
        TopicCatalog topics = TopicCatalog.of(prefix);
        FanoutRouteRun.createTopics(backends.admin(), topics); // notify.fallback: created by the app (TopicLayout)
        FanoutEvents events = new FanoutEvents(plan.eventBytes(), 1, withFallback ? plan.fallback() : null);
        progress.accept(String.format("pre-producing %,d events%s to %s", plan.pending(),
                withFallback ? " with fallback after " + plan.fallback().after() : " without fallback", topics.events().name()));
        EventPreload.produce(backends.bootstrapServers(), topics.events().name(), events, plan.pending(),
                EventPreload.cycled(plan.users()), run, plan.deadline());
        progress.accept("starting fanout-streams (" + GUARANTEE + ", child JVM -Xmx512m)");
        long launched = System.nanoTime();
        try (FanoutInstance.Group apps = FanoutInstance.Group.start(1, backends.bootstrapServers(), backends.redisUri(), prefix,
                GUARANTEE, plan.commitInterval(), plan.settings(), dir)) {
            apps.awaitReady(Duration.ofSeconds(120));
            double startSeconds = (System.nanoTime() - launched) / 1e9;
            List<Long> pid = List.of(apps.first().pid());
            ProcessCpu.Ticks ready = ProcessCpu.sample(pid);
            RoutingWindow w = RoutingWindow.of(FanoutRouteRun.awaitRouted(apps, backends.stats(), plan.pending(), plan.deadline(),
                    progress), plan.pending());
            double cpu = ProcessCpu.sample(pid).since(ready).processSeconds();
            progress.accept(String.format("routed %,d events in %.1f s = %,.0f events/s (%.1f CPU s)", plan.pending(), w.seconds(),
                    w.eventsPerSecond(), cpu));
            FallbackDrain.Drain drain = !withFallback ? null : FallbackDrain.await(apps.first(), backends.bootstrapServers(),
                    topics.fallback().name(), plan.pending(), plan.fallback().delay().plus(plan.deadline()), progress);
            return new Result(mode, run, plan.pending(), w.eventsPerSecond(), w.seconds(), startSeconds, cpu, load, drain);
        }
    }
}
