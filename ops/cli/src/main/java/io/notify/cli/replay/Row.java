package io.notify.cli.replay;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * One record as the replay sees it: where it lives, its timestamp, key and headers, and the scanned
 * value.
 * {@link #routing} is filled by {@code --with-routing} only.
 */
final class Row {

    final String topic;
    final int partition;
    final long offset;
    final long timestamp;
    final byte[] key;
    final Headers headers;
    final ValueScan value;
    private List<Routing> routing;

    Row(ConsumerRecord<byte[], byte[]> r, ValueScan value) {
        this.topic = r.topic();
        this.partition = r.partition();
        this.offset = r.offset();
        this.timestamp = r.timestamp();
        this.key = r.key();
        this.headers = r.headers();
        this.value = value;
    }

    /** The key as text when it is valid UTF-8, else null. */
    String keyText() {
        return Utf8Text.decode(key);
    }

    /** The last header of that name as text, or null. */
    String header(String name) {
        var h = headers.lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** Null unless routing was joined; an empty list means no routing was recorded in the window. */
    List<Routing> routing() {
        return routing;
    }

    void routing(List<Routing> entries) {
        this.routing = List.copyOf(entries);
    }
}
