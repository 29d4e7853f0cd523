package io.notify.cli.doctor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * The lag of fanout-streams' consumer group (its Kafka Streams application id): per topic, the
 * committed offsets behind the last stable offset ({@code read_committed} end). The gateways read their
 * node topics with assigned partitions and no group (docs/topics.md), so Kafka holds no lag of theirs.
 */
final class ConsumerLag {

    static final String CHECK = "lag";

    /** Lag per topic of one group, or the reason there is none. */
    record GroupLag(String group, int members, Map<String, Long> lagByTopic) {

        long total() {
            return lagByTopic.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private ConsumerLag() {
    }

    static GroupLag read(Admin admin, String group, Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
        long ms = timeout.toMillis();
        ConsumerGroupDescription d;
        try {
            d = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get(ms, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return new GroupLag(group, 0, Map.of());
            }
            throw e;
        }
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                .get(ms, TimeUnit.MILLISECONDS);
        committed.values().removeIf(java.util.Objects::isNull);
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = committed.isEmpty() ? Map.of()
                : admin.listOffsets(committed.keySet().stream().collect(Collectors.toMap(Function.identity(), tp -> OffsetSpec.latest())),
                        new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(ms, TimeUnit.MILLISECONDS);
        Map<String, Long> lag = new TreeMap<>();
        committed.forEach((tp, offset) -> lag.merge(tp.topic(), Math.max(0, ends.get(tp).offset() - offset.offset()), Long::sum));
        return new GroupLag(group, d.members().size(), lag);
    }

    /** The verdict: no members is a FAIL (not running); a total above {@code failAbove} FAIL, above {@code warnAbove} WARN. Pure. */
    static List<Finding> judge(GroupLag g, long warnAbove, long failAbove) {
        List<Finding> out = new ArrayList<>();
        if (g.members() == 0) {
            out.add(Finding.fail(CHECK, "fanout-streams' group " + g.group() + " has no member: no instance is running (or its "
                    + "notify.fanout.application-id differs)", "start fanout-streams; give doctor the deployment's settings (--config/--set)"));
            return out;
        }
        String detail = g.lagByTopic().isEmpty() ? "nothing committed yet"
                : g.lagByTopic().entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
        String what = "fanout-streams' group " + g.group() + " (" + g.members() + " members) is " + g.total() + " records behind (" + detail + ")";
        if (g.total() > failAbove) {
            out.add(Finding.fail(CHECK, what + ", above --lag-fail " + failAbove,
                    "add instances or threads (notify.fanout.threads) up to the partition count; look for a stuck or restarting instance"));
        } else if (g.total() > warnAbove) {
            out.add(Finding.warn(CHECK, what + ", above --lag-warn " + warnAbove, "watch it: a lag that keeps growing needs more instances"));
        } else {
            out.add(Finding.ok(CHECK, what));
        }
        return out;
    }
}
