package io.notify.common.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import java.util.List;

/**
 * Which of the Kafka clients' own meters ({@link KafkaMeters}) reach {@code /metrics}: all but
 * <ul>
 *   <li>Kafka Streams' per-store, per-processor-node and per-topic-of-a-node meters
 *       ({@code kafka.stream.state.*}, {@code kafka.stream.processor.node.*},
 *       {@code kafka.stream.topic.*}): about 100 names per store and task, 1,400 of fanout-streams'
 *       2,300 series with the test's few partitions and tens of thousands in production; they stay
 *       in JMX, where Kafka Streams registers them;</li>
 *   <li>the consumer's deprecated copy of each per-topic and per-partition fetch meter, whose
 *       {@code topic} tag has the dots replaced by underscores ({@code notify_events} beside
 *       {@code notify.events}): it would count every lag twice in a sum. Notify's topics all have
 *       a dot, so a {@code topic} with an underscore and no dot is that copy.</li>
 * </ul>
 */
final class KafkaSeries implements MeterFilter {

    static final List<String> DROPPED = List.of("kafka.stream.state.", "kafka.stream.processor.node.", "kafka.stream.topic.");

    @Override
    public MeterFilterReply accept(Meter.Id id) {
        String name = id.getName();
        if (!name.startsWith("kafka.")) {
            return MeterFilterReply.NEUTRAL;
        }
        if (DROPPED.stream().anyMatch(name::startsWith)) {
            return MeterFilterReply.DENY;
        }
        String topic = id.getTag("topic");
        boolean legacyCopy = topic != null && topic.indexOf('.') < 0 && topic.indexOf('_') >= 0;
        return legacyCopy && name.startsWith("kafka.consumer.fetch.manager.") ? MeterFilterReply.DENY : MeterFilterReply.NEUTRAL;
    }
}
