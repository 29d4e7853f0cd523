package io.notify.cli.bench;

import io.notify.protocol.event.Digest;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.prefs.Preferences;
import io.notify.schemas.publish.NotifyPublisher;
import io.notify.schemas.topic.TopicCatalog;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One quiet or digest mode of one {@code bench fallback} run (docs/inbox.md, "Quiet hours" and
 * "Digests"), in a world of its own as {@link FallbackRun}'s modes (fresh topic prefix, the same
 * broker and Redis, one fanout-streams instance, {@value FallbackRun#GUARANTEE}); unlike them the
 * instance starts first and the events are published to it live (through {@link NotifyPublisher}),
 * so the times are the run's own. Then {@link FallbackDrain} waits for every fallback to be decided
 * and the records are read back and checked ({@link FallbackRulesCheck}).
 *
 * <ul>
 *   <li>{@value #QUIET}: every user's preferences get quiet hours ({@link QuietWindow}: they began a
 *       minute before, they end at a whole minute {@code --quiet-ends-in} or up to 60 s more ahead),
 *       written to {@code notify.preferences} as the gateway would; then {@code --pending} events, event
 *       i to user i mod {@code --users}, with a fallback due well inside the window.</li>
 *   <li>{@value #DIGEST}: {@code --digest-events} events to every user, all with one digest key,
 *       published round by round (every user's first, then every user's second, ...), so each user's
 *       events spread over the whole publishing time, which must stay under the window.</li>
 * </ul>
 */
final class FallbackRules {

    static final String QUIET = "quiet";
    static final String DIGEST = "digest";
    static final String DIGEST_KEY = "bench.digest";
    private static final String TYPE = "bench.fallback";
    private static final Duration READ_BOUND = Duration.ofSeconds(60);

    /**
     * What every quiet and digest mode is told.
     *
     * @param quietEvents  the quiet mode's events ({@code --pending}), event i to user i mod {@code users}
     * @param digestEvents the digest mode's events per user
     */
    record Plan(int users, long quietEvents, Fallback quietFallback, Duration quietEndsIn, ZoneId quietZone,
                int digestEvents, Fallback digestFallback, Digest digest, Duration commitInterval, List<String> settings,
                Duration deadline) {

        /** When a digest falls due after its first event is sequenced: the later of its fallback and its window. */
        Duration digestDueAfter() {
            Duration after = digestFallback.delay();
            return after.compareTo(digest.length()) >= 0 ? after : digest.length();
        }
    }

    /**
     * One mode of one run.
     *
     * @param publishSeconds first to last event acknowledged by the broker
     * @param window         the quiet hours ({@value #QUIET}; null for {@value #DIGEST})
     * @param quiet          the quiet mode's verdict (null for the digest mode)
     * @param digests        the digest mode's verdict (null for the quiet mode)
     * @param outcomes       {@code notify_fanout_fallback_total} by outcome at the end
     * @param metricP50Ms    the app's {@code notify_fanout_fallback_lateness_seconds} p50 (its buckets); p99 likewise
     */
    record Result(String mode, int run, long events, int users, double loadAverage, double publishSeconds, QuietWindow window,
                  FallbackRulesCheck.Quiet quiet, FallbackRulesCheck.Digests digests, Map<String, Long> outcomes,
                  double metricP50Ms, double metricP99Ms) {

        boolean ok() {
            return quiet != null ? quiet.ok() : digests.ok();
        }
    }

    private final FanoutBackends backends;
    private final Consumer<String> progress;

    FallbackRules(FanoutBackends backends, Consumer<String> progress) {
        this.backends = backends;
        this.progress = progress;
    }

    Result run(Plan plan, String mode, String prefix, int run, Path dir) throws Exception {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        TopicCatalog topics = TopicCatalog.of(prefix);
        FanoutRouteRun.createTopics(backends.admin(), topics); // notify.preferences and notify.fallback: created by the app
        progress.accept("starting fanout-streams (" + FallbackRun.GUARANTEE + ", child JVM -Xmx512m)");
        try (FanoutInstance.Group apps = FanoutInstance.Group.start(1, backends.bootstrapServers(), backends.redisUri(), prefix,
                FallbackRun.GUARANTEE, plan.commitInterval(), plan.settings(), dir)) {
            apps.awaitReady(Duration.ofSeconds(120));
            return mode.equals(QUIET) ? quiet(plan, topics, apps.first(), run, load) : digests(plan, topics, apps.first(), run, load);
        }
    }

    private Result quiet(Plan plan, TopicCatalog topics, FanoutInstance app, int run, double load) throws Exception {
        QuietWindow window = QuietWindow.of(Instant.now(), plan.quietEndsIn(), plan.quietZone());
        BenchPreferences.write(backends.bootstrapServers(), topics, plan.users(), FanoutEvents::user,
                new Preferences(Map.of(), Map.of(), window.quietHours())); // these quiet hours, every channel on
        progress.accept(String.format("quiet hours %s-%s %s for %,d users (ends in %.0f s); publishing %,d events with fallback"
                + " after %s", window.start(), window.end(), window.timeZone(), plan.users(),
                (window.endsAt() - System.currentTimeMillis()) / 1000.0, plan.quietEvents(), plan.quietFallback().after()));
        Map<String, String> userOf = new LinkedHashMap<>();
        List<EventEnvelope> events = new ArrayList<>();
        for (long i = 0; i < plan.quietEvents(); i++) {
            String user = FanoutEvents.user((int) (i % plan.users()));
            String id = "bq-" + run + "-" + i;
            userOf.put(id, user);
            events.add(EventEnvelope.durable(TYPE, null, user).withId(id).withFallback(plan.quietFallback()));
        }
        double seconds = publish(topics, events, plan.deadline());
        Duration untilEnd = Duration.ofMillis(Math.max(0, window.endsAt() - System.currentTimeMillis()));
        FallbackDrain.Drain drain = FallbackDrain.await(app, backends.bootstrapServers(), topics.fallback().name(),
                plan.quietEvents(), untilEnd.plus(plan.deadline()), progress);
        List<FallbackRulesCheck.Seen> seen = FallbackRecords.read(backends.bootstrapServers(), topics.fallback().name(),
                plan.quietEvents(), READ_BOUND, FallbackRulesCheck.Seen::of);
        FallbackRulesCheck.Quiet q = FallbackRulesCheck.quiet(seen, userOf, window.endsAt(), plan.quietFallback().delay().toMillis());
        progress.accept(String.format("%,d records: %d missing, %d duplicate, %d early, %d not held; lateness past the window's"
                + " end p50 %.0f ms, max %.0f ms", q.records(), q.missing(), q.duplicates(), q.early(), q.notHeld(),
                q.latenessP50Ms(), q.latenessMaxMs()));
        return new Result(QUIET, run, plan.quietEvents(), plan.users(), load, seconds, window, q, null, drain.outcomes(),
                drain.metricP50Ms(), drain.metricP99Ms());
    }

    private Result digests(Plan plan, TopicCatalog topics, FanoutInstance app, int run, double load) throws Exception {
        Map<String, List<String>> eventsOf = new LinkedHashMap<>();
        List<EventEnvelope> events = new ArrayList<>();
        for (int k = 0; k < plan.digestEvents(); k++) {
            for (int u = 0; u < plan.users(); u++) {
                String user = FanoutEvents.user(u);
                String id = "bd-" + run + "-" + u + "-" + k;
                eventsOf.computeIfAbsent(user, x -> new ArrayList<>()).add(id);
                events.add(EventEnvelope.durable(TYPE, null, user).withId(id).withFallback(plan.digestFallback())
                        .withPolicy(null, false, plan.digest()));
            }
        }
        progress.accept(String.format("publishing %,d events to %,d users (%d each), digest key %s window %s, fallback after %s",
                events.size(), plan.users(), plan.digestEvents(), DIGEST_KEY, plan.digest().window(),
                plan.digestFallback().after()));
        double seconds = publish(topics, events, plan.deadline());
        if (seconds * 1000 >= plan.digest().length().toMillis()) {
            progress.accept(String.format("warning: publishing took %.1f s, not under the digest window %s: digests will split",
                    seconds, plan.digest().window()));
        }
        FallbackDrain.Drain drain = FallbackDrain.await(app, backends.bootstrapServers(), topics.fallback().name(), plan.users(),
                plan.digestDueAfter().plus(plan.deadline()), progress);
        List<FallbackRulesCheck.Seen> seen = FallbackRecords.read(backends.bootstrapServers(), topics.fallback().name(),
                plan.users(), READ_BOUND, FallbackRulesCheck.Seen::of);
        FallbackRulesCheck.Digests d = FallbackRulesCheck.digests(seen, eventsOf, DIGEST_KEY, plan.digestDueAfter().toMillis());
        progress.accept(String.format("%,d records for %,d users: %d missing, %d duplicate, %d wrong count, %d wrong first/last;"
                + " lateness p50 %.0f ms, max %.0f ms", d.records(), d.users(), d.missing(), d.duplicates(), d.wrongCount(),
                d.wrongEnds(), d.latenessP50Ms(), d.latenessMaxMs()));
        return new Result(DIGEST, run, events.size(), plan.users(), load, seconds, null, null, d, drain.outcomes(),
                drain.metricP50Ms(), drain.metricP99Ms());
    }

    /** Publishes {@code events} in order; seconds from the first send to the last acknowledgement. */
    private double publish(TopicCatalog topics, List<EventEnvelope> events, Duration bound) throws Exception {
        long start = System.nanoTime();
        try (NotifyPublisher publisher = NotifyPublisher.builder().bootstrapServers(backends.bootstrapServers()).topics(topics)
                .producer("bench-fallback").build()) {
            List<CompletableFuture<?>> sent = new ArrayList<>(events.size());
            for (EventEnvelope e : events) {
                sent.add(publisher.publish(e));
            }
            try {
                CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(bound.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new IOException("publishing " + events.size() + " events failed or took over " + bound, e);
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }
}
