package io.notify.fanout.recipients;

import io.notify.fanout.intake.Intake;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.protocol.stream.StreamId;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Step 3: one record per addressed stream (users, rooms, {@code b:all}), keyed by the stream, in the order of {@code to}
 * (the recipient list is not copied), each marked local when its stream's by-stream partition is
 * the partition the event was read from ({@link RecipientPlacement}).
 */
public final class ExplodeProcessor implements Processor<String, Intake.Accepted, StreamId, Placed> {

    private final RecipientPlacement placement;
    private final FanoutMetrics metrics;
    private ProcessorContext<StreamId, Placed> context;

    public ExplodeProcessor(RecipientPlacement placement, FanoutMetrics metrics) {
        this.placement = placement;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<StreamId, Placed> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, Intake.Accepted> record) {
        int partition = context.recordMetadata().map(RecordMetadata::partition).orElse(-1);
        Intake.Accepted a = record.value();
        for (RecipientEvent.StreamAddressed r : RecipientEvent.explode(a.envelope(), a.ingestedAt())) {
            boolean local = placement.local(r.stream(), partition);
            metrics.recipient(local);
            context.forward(record.withKey(r.stream()).withValue(new Placed(r.event(), local)));
        }
    }
}
