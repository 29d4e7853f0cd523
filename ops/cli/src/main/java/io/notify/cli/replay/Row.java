package io.notify.cli.replay;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * One record as the replay sees it: where it lives, its timestamp, key and headers, and the scanned
 * value (only the fields at the paths the reader asked for). {@link #routing} is filled by
 * {@code --with-routing} only. Public for the commands that look records up ({@link RecordLookup}).
 */
public final class Row {

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

    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }

    public long offset() {
        return offset;
    }

    /** The record timestamp, epoch ms. */
    public long timestamp() {
        return timestamp;
    }

    public Headers headers() {
        return headers;
    }

    /** The value bytes, or null for a tombstone. */
    public byte[] valueBytes() {
        return value.bytes();
    }

    /** The JSON text of the scalar or object at a scanned {@code path} of the value, or null. */
    public String text(String path) {
        return value.text(path);
    }

    /** The items of the array at a scanned {@code path} of the value; empty when absent. */
    public List<String> list(String path) {
        return value.list(path);
    }

    /** The key as text when it is valid UTF-8, else null. */
    public String keyText() {
        return Utf8Text.decode(key);
    }

    /** The last header of that name as text, or null. */
    public String header(String name) {
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
