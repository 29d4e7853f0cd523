package io.notify.fanout.routing;

import io.notify.schemas.topic.TopicCatalog;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link NodeTopics} backed by the Kafka Admin client. A background thread lists the node topics
 * every refresh interval; a topic the last listing did not have (a node that just started) is
 * checked once with {@code describeTopics}, bounded by the check timeout, and a negative answer
 * is remembered for the missing-TTL so a dead node's topic costs at most one check per TTL.
 * When a check cannot answer (broker slow), the topic is assumed to exist: the production
 * handler still catches a real miss, while a false "missing" would silently skip live users.
 * Thread-safe. {@link #close()} stops the refresher, not the Admin client (the caller owns it).
 */
public final class AdminNodeTopics implements NodeTopics, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AdminNodeTopics.class);

    private final Admin admin;
    private final TopicCatalog topics;
    private final Duration checkTimeout;
    private final long missingTtlMs;
    private final Clock clock;
    private final Set<String> known = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<String, Long> missingSince = new ConcurrentHashMap<>();
    private final ScheduledExecutorService refresher;

    public AdminNodeTopics(Admin admin, TopicCatalog topics, Duration refreshInterval, Duration checkTimeout,
                           Duration missingTtl, Clock clock) {
        this.admin = admin;
        this.topics = topics;
        this.checkTimeout = checkTimeout;
        this.missingTtlMs = missingTtl.toMillis();
        this.clock = clock;
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fanout-node-topics");
            t.setDaemon(true);
            return t;
        });
        refresher.scheduleWithFixedDelay(this::refresh, 0, refreshInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public boolean exists(String topic) {
        if (known.contains(topic)) {
            return true;
        }
        Long since = missingSince.get(topic);
        if (since != null && clock.millis() - since < missingTtlMs) {
            return false;
        }
        return check(topic);
    }

    @Override
    public void markMissing(String topic) {
        known.remove(topic);
        missingSince.put(topic, clock.millis());
    }

    private boolean check(String topic) {
        try {
            admin.describeTopics(List.of(topic)).allTopicNames().get(checkTimeout.toMillis(), TimeUnit.MILLISECONDS);
            known.add(topic);
            missingSince.remove(topic);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                markMissing(topic);
                return false;
            }
            LOG.warn("cannot tell whether {} exists ({}); assuming it does", topic, e.getCause().toString());
            return true;
        } catch (TimeoutException e) {
            LOG.warn("no answer within {} on whether {} exists; assuming it does", checkTimeout, topic);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private void refresh() {
        try {
            Set<String> names = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            Set<String> nodeTopics = ConcurrentHashMap.newKeySet();
            names.stream().filter(n -> topics.nodeIdOf(n).isPresent() || n.equals(topics.allNodes().name())).forEach(nodeTopics::add);
            known.addAll(nodeTopics);
            known.retainAll(nodeTopics);
            nodeTopics.forEach(missingSince::remove);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.warn("listing node topics failed; keeping the last known set: {}", e.toString());
        }
    }

    @Override
    public void close() {
        refresher.shutdownNow();
    }
}
