package io.notify.cli.replay;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

/** Builds consumer records and rows for broker-free tests. */
final class Records {

    private Records() {
    }

    static ConsumerRecord<byte[], byte[]> record(String topic, int partition, long offset, long ts, String key, String value,
                                                 RecordHeaders headers) {
        byte[] k = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
        byte[] v = value == null ? null : value.getBytes(StandardCharsets.UTF_8);
        return new ConsumerRecord<>(topic, partition, offset, ts, TimestampType.CREATE_TIME, k == null ? -1 : k.length,
                v == null ? -1 : v.length, k, v, headers == null ? new RecordHeaders() : headers, Optional.empty());
    }

    static Row row(String topic, int partition, long offset, long ts, String key, String value, java.util.Set<String> paths) {
        return new Row(record(topic, partition, offset, ts, key, value, null),
                ValueScan.of(value == null ? null : value.getBytes(StandardCharsets.UTF_8), new ValueScan.Paths(paths)));
    }
}
