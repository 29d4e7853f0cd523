package io.notify.cli.replay;

import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.header.Header;

/**
 * JSON Lines: one object per record, fields in this order:
 * <pre>{"topic":"notify.stream-log","partition":3,"offset":1234,"timestamp":"2026-11-29T09:15:30.123Z",
 *  "key":"u:42","headers":{...},"value":{...},"routing":[...]}</pre>
 * {@code value} is the record value as is (JSON stays JSON, byte for byte, re-encoded compact only
 * when it spans lines); a value that is not one JSON value becomes {@code "valueText"} (UTF-8) or
 * {@code "valueBase64"}; a non-UTF-8 key becomes {@code "keyBase64"}. {@code headers} (last value
 * per name) appears only when the record has headers, {@code routing} only with --with-routing.
 */
final class JsonlWriter implements RowWriter {

    private final ChunkedOut out;
    private final TimeText time = new TimeText();
    private final Map<String, byte[]> topicJson = new LinkedHashMap<>();

    JsonlWriter(OutputStream out) {
        this.out = new ChunkedOut(out);
    }

    @Override
    public Set<String> paths() {
        return Set.of();
    }

    @Override
    public void write(Row r) throws IOException {
        LineBuffer b = out.buffer();
        b.ascii("{\"topic\":").bytes(topicJson.computeIfAbsent(r.topic, t -> new LineBuffer().jsonString(t).toBytes()));
        b.ascii(",\"partition\":").number(r.partition).ascii(",\"offset\":").number(r.offset);
        b.ascii(",\"timestamp\":\"");
        time.appendTo(b, r.timestamp);
        if (r.key == null) {
            b.ascii(",\"key\":null");
        } else {
            int mark = b.length();
            if (!b.ascii(",\"key\":").jsonStringOf(r.key)) {
                b.truncate(mark).ascii(",\"keyBase64\":").jsonString(Base64.getEncoder().encodeToString(r.key));
            }
        }
        if (r.headers.iterator().hasNext()) {
            headers(b, r);
        }
        value(b, r.value);
        if (r.routing() != null) {
            routing(b, r);
        }
        b.ascii("}\n");
        out.endLine();
    }

    private static void headers(LineBuffer b, Row r) {
        Map<String, byte[]> last = new LinkedHashMap<>();
        for (Header h : r.headers) {
            last.put(h.key(), h.value());
        }
        b.ascii(",\"headers\":{");
        boolean first = true;
        for (var e : last.entrySet()) {
            b.ascii(first ? "" : ",").jsonString(e.getKey()).ascii(":").jsonString(Utf8Text.display(e.getValue()));
            first = false;
        }
        b.ascii("}");
    }

    private static void value(LineBuffer b, ValueScan v) throws IOException {
        if (v.bytes() == null) {
            b.ascii(",\"value\":null");
        } else if (v.isJson() && !v.hasLineBreak()) {
            b.ascii(",\"value\":").bytes(v.bytes());
        } else if (v.isJson()) {
            b.ascii(",\"value\":").text(NotifyJson.mapper().readTree(v.bytes()).toString());
        } else {
            String text = Utf8Text.decode(v.bytes());
            b.ascii(text != null ? ",\"valueText\":" : ",\"valueBase64\":")
                    .jsonString(text != null ? text : Base64.getEncoder().encodeToString(v.bytes()));
        }
    }

    private void routing(LineBuffer b, Row r) {
        b.ascii(",\"routing\":[");
        boolean first = true;
        for (Routing x : r.routing()) {
            b.ascii(first ? "{" : ",{");
            if (x.node() != null) {
                b.ascii("\"node\":").jsonString(x.node()).ascii(",\"routedAt\":\"").ascii(time.format(x.at()))
                        .ascii("\",\"connections\":[");
                for (int i = 0; i < x.connections().size(); i++) {
                    b.ascii(i == 0 ? "" : ",").jsonString(x.connections().get(i));
                }
                b.ascii("]}");
            } else {
                b.ascii("\"undelivered\":").jsonString(x.reason()).ascii(",\"at\":\"").ascii(time.format(x.at())).ascii("\"}");
            }
            first = false;
        }
        b.ascii("]");
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }
}
