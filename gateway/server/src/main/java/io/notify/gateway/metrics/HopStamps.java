package io.notify.gateway.metrics;

import io.notify.schemas.trace.HopTrace;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.record.TimestampType;

/**
 * The {@link HopTrace} stamps of one node-topic record plus the moment this node polled it, all in
 * epoch microseconds ({@link HopTrace#NONE} where a stamp is missing). Carried by the live frame so
 * the hop from poll to socket write is measured when the write completes.
 *
 * @param accept   ingest received the request
 * @param produced the record's CreateTime (ingest's, or a direct producer's, send), ms precision
 */
public record HopStamps(long accept, long produced, long intake, long sequence, long route, long polled) {

    public static HopStamps of(ConsumerRecord<?, ?> record, long polledMicros) {
        long produced = record.timestampType() == TimestampType.CREATE_TIME && record.timestamp() >= 0
                ? record.timestamp() * 1_000 : HopTrace.NONE;
        return new HopStamps(HopTrace.read(record.headers(), HopTrace.ACCEPT), produced,
                HopTrace.read(record.headers(), HopTrace.INTAKE), HopTrace.read(record.headers(), HopTrace.SEQUENCE),
                HopTrace.read(record.headers(), HopTrace.ROUTE), polledMicros);
    }
}
