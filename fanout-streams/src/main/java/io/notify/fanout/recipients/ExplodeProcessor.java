package io.notify.fanout.recipients;

import io.notify.fanout.intake.Intake;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.ProducerScope;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Step 3: one record per addressed stream (users, rooms, {@code b:all}), keyed by the stream, in the order of {@code to}
 * (the recipient list is not copied), each marked local when its stream's by-stream partition is
 * the partition the event was read from ({@link RecipientPlacement}). A producer's recall is exploded the same
 * way, so it meets each stream's events in the task that owns them.
 */
public final class ExplodeProcessor implements Processor<String, Intake, StreamId, Placed> {

    private final RecipientPlacement placement;
    private final FanoutMetrics metrics;
    private ProcessorContext<StreamId, Placed> context;
    private byte[] lastScope; // the last producer header's bytes, and its name: nearly every record repeats it
    private String lastProducer;

    public ExplodeProcessor(RecipientPlacement placement, FanoutMetrics metrics) {
        this.placement = placement;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<StreamId, Placed> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, Intake> record) {
        int partition = context.recordMetadata().map(RecordMetadata::partition).orElse(-1);
        String producer = producer(record.headers());
        List<RecipientEvent.StreamAddressed> streams;
        if (record.value() instanceof Intake.Accepted a) {
            streams = RecipientEvent.explode(a.envelope(), a.ingestedAt(), producer);
        } else if (record.value() instanceof Intake.Recalled r) {
            streams = RecipientEvent.explode(r.recall(), r.ingestedAt(), producer);
        } else {
            throw new IllegalStateException("a rejected record never reaches the fan-out");
        }
        for (RecipientEvent.StreamAddressed r : streams) {
            boolean local = placement.local(r.stream(), partition);
            metrics.recipient(local);
            context.forward(record.withKey(r.stream()).withValue(new Placed(r.event(), local)));
        }
    }

    /** The producer scope the record was published in ({@link ProducerScope}), null for the shared one; decoded once per change. */
    private String producer(Headers headers) {
        Header h = headers.lastHeader(ProducerScope.HEADER);
        byte[] scope = h == null ? null : h.value();
        if (scope == null || scope.length == 0) {
            return null;
        }
        if (!Arrays.equals(scope, lastScope)) {
            lastScope = scope;
            String name = new String(scope, StandardCharsets.UTF_8);
            lastProducer = ProducerScope.DIRECT.equals(name) ? null : name;
        }
        return lastProducer;
    }
}
