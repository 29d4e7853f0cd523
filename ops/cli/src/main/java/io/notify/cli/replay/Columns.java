package io.notify.cli.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.protocol.NotifyJson;
import io.notify.schemas.topic.DlqHeaders;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The fixed column sets of the CSV and table formats, per topic (documented in docs/replay.md).
 * Times are RFC 3339 UTC with milliseconds; lists are joined with ';'; {@code data} and the DLQ
 * {@code value} are JSON (or raw) text. A missing field is an empty cell.
 */
final class Columns {

    /** One column: its header, its table width (0 = CSV only), the value paths it reads, and its cell. */
    record Column(String name, int width, Set<String> paths, Function<Row, String> cell) {
    }

    /** The push sender's header naming the registration a push DLQ record is about (push's Outcomes). */
    static final String PUSH_REGISTRATION_HEADER = "notify.push.registration";
    /** The push providers, as the fields of a registration name them (PushRegistration). */
    private static final List<String> PROVIDERS = List.of("webpush", "fcm", "apns");
    /** The channels of a user's preferences, as an entry names them (Channels). */
    private static final List<String> PREFERENCE_CHANNELS = List.of("live", "inbox", "push");

    private final TimeText time = new TimeText();

    List<Column> csv(SourceTopic topic, boolean routing) {
        List<Column> c = new ArrayList<>(List.of(
                meta("timestamp", 0, r -> time.format(r.timestamp)),
                meta("partition", 0, r -> Integer.toString(r.partition)),
                meta("offset", 0, r -> Long.toString(r.offset))));
        c.addAll(switch (topic) {
            case EVENTS -> List.of(field("id"), field("type"), eventClass("class"), list("users", "to.users"),
                    field("occurredAt"), field("source"), field("collapseKey"), field("data"));
            case STREAM_LOG -> List.of(field("stream"), field("epoch"), field("seq"), field("id"), field("type"),
                    field("occurredAt"), field("source"), millis("ingestedAt", "ingestedAt"),
                    millis("sequencedAt", "sequencedAt"), field("data"));
            case UNDELIVERED -> List.of(field("stream"), field("userId"), field("reason"), millis("at", "at"),
                    field("id", "event.id"), field("type", "event.type"), field("class", "event.class"),
                    field("epoch", "event.epoch"), field("seq", "event.seq"), field("data", "event.data"));
            case DLQ -> List.of(meta("key", 0, r -> Utf8Text.display(r.key)),
                    header("errorKind", DlqHeaders.ERROR_KIND), header("error", DlqHeaders.ERROR),
                    header("sourceTopic", DlqHeaders.SOURCE_TOPIC), header("sourcePartition", DlqHeaders.SOURCE_PARTITION),
                    header("sourceOffset", DlqHeaders.SOURCE_OFFSET), header("failedAt", DlqHeaders.FAILED_AT),
                    meta("value", 0, r -> Utf8Text.display(r.value.bytes())));
            case RECEIPTS -> List.of(stream("stream", 0, topic), field("kind"), field("epoch"), field("upTo"),
                    list("ids", 0, "ids"), field("device"), millis("at", "at"));
            case INBOX_STATE -> List.of(stream("stream", 0, topic), field("epoch"),
                    field("seen.upTo"), list("seen.seqs", 0, "seen.seqs"), field("read.upTo"), list("read.seqs", 0, "read.seqs"),
                    field("archived.upTo"), list("archived.seqs", 0, "archived.seqs"), devices("devices", 0),
                    field("version"), millis("updatedAt", "updatedAt"));
            case FALLBACK -> List.of(field("stream"), field("channel"), field("reason"), field("id", "event.id"),
                    field("type", "event.type"), field("epoch", "event.epoch"), field("seq", "event.seq"),
                    deviceList("devices", 0), millis("dueAt", "dueAt"), millis("at", "at"), lateness("lateness", 0, ""));
            case PUSH_CHANGES -> List.of(stream("stream", 0, topic), field("kind"), field("id"),
                    provider("provider", 0, "registration."), field("reason"), millis("at", "at"));
            case PUSH_REGISTRATIONS -> List.of(stream("stream", 0, topic), count("count", 0), registrations("registrations", 0),
                    field("change.kind"), field("change.id"), field("change.reason"), millis("updatedAt", "updatedAt"));
            case PUSH_OUTCOMES -> List.of(stream("stream", 0, topic), field("eventId"), field("seq"), field("registration"),
                    field("provider"), field("outcome"), field("attempt"), field("status"), field("reason"), field("providerId"),
                    millis("at", "at"));
            case PUSH_DLQ -> List.of(meta("key", 0, r -> Utf8Text.display(r.key)), field("id", "event.id"),
                    field("type", "event.type"), field("epoch", "event.epoch"), field("seq", "event.seq"),
                    dlqRegistration("registration", 0), dlqProvider("provider", 0),
                    header("errorKind", DlqHeaders.ERROR_KIND), header("error", DlqHeaders.ERROR),
                    header("sourceTopic", DlqHeaders.SOURCE_TOPIC), header("sourcePartition", DlqHeaders.SOURCE_PARTITION),
                    header("sourceOffset", DlqHeaders.SOURCE_OFFSET), header("failedAt", DlqHeaders.FAILED_AT),
                    meta("value", 0, r -> Utf8Text.display(r.value.bytes())));
            case PREFERENCES -> List.of(stream("stream", 0, topic), channels("types", 0, "preferences.types"),
                    channels("categories", 0, "preferences.categories"), quietHours("quietHours", 0),
                    millis("updatedAt", "updatedAt"));
        });
        if (routing) {
            c.add(meta("routing", 0, Columns::routingCell));
        }
        return c;
    }

    List<Column> table(SourceTopic topic, boolean routing) {
        List<Column> c = new ArrayList<>(List.of(
                meta("TIME", 24, r -> time.format(r.timestamp)),
                meta("P:OFFSET", 12, r -> r.partition + ":" + r.offset)));
        c.addAll(switch (topic) {
            case EVENTS -> List.of(sized("ID", 32, "id"), sized("TYPE", 24, "type"),
                    new Column("CLASS", 9, Set.of("class"), r -> eventClassOf(r, "class")),
                    new Column("USERS", 60, Set.of("to.users"), r -> String.join(";", r.value.list("to.users"))));
            case STREAM_LOG -> List.of(sized("STREAM", 16, "stream"), sized("SEQ", 7, "seq"), sized("ID", 32, "id"),
                    sized("TYPE", 24, "type"));
            case UNDELIVERED -> List.of(sized("STREAM", 16, "stream"), sized("SEQ", 7, "event.seq"),
                    sized("ID", 32, "event.id"), sized("TYPE", 24, "event.type"), sized("REASON", 22, "reason"));
            case DLQ -> List.of(meta("KEY", 32, r -> Utf8Text.display(r.key)),
                    new Column("KIND", 16, Set.of(), r -> r.header(DlqHeaders.ERROR_KIND)),
                    new Column("ERROR", 80, Set.of(), r -> r.header(DlqHeaders.ERROR)));
            case RECEIPTS -> List.of(stream("STREAM", 16, topic), sized("KIND", 7, "kind"), sized("EPOCH", 16, "epoch"),
                    sized("DEVICE", 16, "device"), sized("UPTO", 7, "upTo"), list("IDS", 60, "ids"));
            case INBOX_STATE -> List.of(stream("STREAM", 16, topic), sized("EPOCH", 16, "epoch"), marks("SEEN", "seen"),
                    marks("READ", "read"), marks("ARCHIVED", "archived"), sized("VERSION", 7, "version"),
                    devices("DEVICES", 60));
            case FALLBACK -> List.of(sized("STREAM", 16, "stream"), sized("SEQ", 7, "event.seq"), sized("ID", 32, "event.id"),
                    sized("CHANNEL", 10, "channel"), sized("REASON", 9, "reason"), millis("DUE", 24, "dueAt"),
                    lateness("LATENESS", 9, " ms"), deviceList("DEVICES", 60));
            case PUSH_CHANGES -> List.of(stream("STREAM", 16, topic), sized("KIND", 10, "kind"), sized("ID", 25, "id"),
                    provider("PROVIDER", 8, "registration."), sized("REASON", 60, "reason"));
            case PUSH_REGISTRATIONS -> List.of(stream("STREAM", 16, topic), count("COUNT", 5), lastChange("LAST CHANGE", 80));
            case PUSH_OUTCOMES -> List.of(stream("STREAM", 16, topic), sized("EVENT", 32, "eventId"), sized("SEQ", 7, "seq"),
                    sized("REGISTRATION", 25, "registration"), sized("PROVIDER", 8, "provider"), sized("OUTCOME", 15, "outcome"),
                    sized("ATTEMPT", 7, "attempt"), httpStatus("STATUS", 6), sized("REASON", 60, "reason"));
            case PUSH_DLQ -> List.of(stream("STREAM", 16, topic), sized("SEQ", 7, "event.seq"), sized("ID", 32, "event.id"),
                    dlqRegistration("REGISTRATION", 25), new Column("KIND", 16, Set.of(), r -> r.header(DlqHeaders.ERROR_KIND)),
                    new Column("ERROR", 80, Set.of(), r -> r.header(DlqHeaders.ERROR)));
            case PREFERENCES -> List.of(stream("STREAM", 16, topic), channels("TYPES", 40, "preferences.types"),
                    channels("CATEGORIES", 30, "preferences.categories"), quietHours("QUIET HOURS", 40));
        });
        if (routing) {
            c.add(meta("ROUTING", 60, Columns::routingCell));
        }
        return c;
    }

    static Set<String> paths(List<Column> columns) {
        return columns.stream().flatMap(c -> c.paths().stream()).collect(Collectors.toSet());
    }

    private static Column meta(String name, int width, Function<Row, String> cell) {
        return new Column(name, width, Set.of(), cell);
    }

    private static Column field(String name) {
        return field(name, name);
    }

    private static Column field(String name, String path) {
        return new Column(name, 0, Set.of(path), r -> r.value.text(path));
    }

    private static Column sized(String name, int width, String path) {
        return new Column(name, width, Set.of(path), r -> r.value.text(path));
    }

    private static Column list(String name, String path) {
        return list(name, 0, path);
    }

    private static Column list(String name, int width, String path) {
        return new Column(name, width, Set.of(path), r -> String.join(";", r.value.list(path)));
    }

    private Column millis(String name, String path) {
        return millis(name, 0, path);
    }

    private Column millis(String name, int width, String path) {
        return new Column(name, width, Set.of(path), r -> time.formatMillisText(r.value.text(path)));
    }

    /** The stream, from the key where the value has none (an inbox-state tombstone). */
    private static Column stream(String name, int width, SourceTopic topic) {
        return new Column(name, width, Set.of("stream"), r -> String.join(";", topic.values(r, "stream")));
    }

    /** One kind of inbox marks: {@code upTo}, then the single seqs above it: {@code 17 +19,21}. */
    private static Column marks(String name, String path) {
        String upTo = path + ".upTo";
        String seqs = path + ".seqs";
        return new Column(name, 12, Set.of(upTo, seqs), r -> {
            String u = r.value.text(upTo);
            List<String> s = r.value.list(seqs);
            return s.isEmpty() || u == null ? u : u + " +" + String.join(",", s);
        });
    }

    /** An inbox state's devices as {@code device:acked} pairs, in the value's (name) order. */
    private static Column devices(String name, int width) {
        return new Column(name, width, Set.of("devices"), r -> devicesOf(r.value.text("devices")));
    }

    private static String devicesOf(String json) {
        return entries(json, (device, d) -> device + ":" + d.path("acked").asText());
    }

    /** A JSON object's fields as {@code each(name, value)}, in the value's order, joined with ';'; the text itself if not JSON. */
    private static String entries(String json, BiFunction<String, JsonNode, String> each) {
        return tree(json, object -> {
            List<String> pairs = new ArrayList<>();
            object.fields().forEachRemaining(e -> pairs.add(each.apply(e.getKey(), e.getValue())));
            return String.join(";", pairs);
        });
    }

    /**
     * A user's preferences by type or category as {@code key:} and the channels the entry names, {@code -} off and
     * {@code +} on: {@code order.shipped:-live+inbox-push;promo.vip:+push} (a channel it leaves out follows the category,
     * else is on).
     */
    private static Column channels(String name, int width, String path) {
        return new Column(name, width, Set.of(path), r -> entries(r.value.text(path), (key, c) -> key + ":"
                + PREFERENCE_CHANNELS.stream().filter(c::hasNonNull)
                        .map(ch -> (c.path(ch).asBoolean(true) ? "+" : "-") + ch).collect(Collectors.joining())));
    }

    /** A user's quiet hours as {@code 22:00-07:00 Europe/Berlin}; empty when none. */
    private static Column quietHours(String name, int width) {
        String path = "preferences.quietHours";
        return new Column(name, width, Set.of(path), r -> tree(r.value.text(path),
                q -> q.path("start").asText() + "-" + q.path("end").asText() + " " + q.path("timeZone").asText()));
    }

    /** A fallback record's devices as {@code device:acked} pairs, in the record's order. */
    private static Column deviceList(String name, int width) {
        return new Column(name, width, Set.of("devices"),
                r -> r.value.list("devices").stream().map(Columns::deviceAcked).collect(Collectors.joining(";")));
    }

    private static String deviceAcked(String json) {
        return tree(json, d -> d.path("device").asText() + ":" + d.path("acked").asText());
    }

    /** {@code text} of the JSON {@code json} holds; the text itself where it is not JSON, null for null. */
    private static String tree(String json, Function<JsonNode, String> text) {
        if (json == null) {
            return null;
        }
        try {
            return text.apply(NotifyJson.mapper().readTree(json));
        } catch (IOException e) {
            return json;
        }
    }

    /** {@code at - dueAt} in ms (how late the fallback timer decided), followed by {@code unit}. */
    private static Column lateness(String name, int width, String unit) {
        return new Column(name, width, Set.of("at", "dueAt"), r -> {
            try {
                return (Long.parseLong(r.value.text("at")) - Long.parseLong(r.value.text("dueAt"))) + unit;
            } catch (NumberFormatException e) {
                return null; // a field missing (null text) or not a number
            }
        });
    }

    /**
     * The provider of the registration under {@code prefix} ({@code "registration."} on a push change):
     * the one of {@code webpush}, {@code fcm} and {@code apns} it holds; empty when none (an unregister or gone).
     */
    private static Column provider(String name, int width, String prefix) {
        List<String> paths = PROVIDERS.stream().map(p -> prefix + p).toList();
        return new Column(name, width, Set.copyOf(paths), r -> {
            for (int i = 0; i < paths.size(); i++) {
                if (r.value.text(paths.get(i)) != null) {
                    return PROVIDERS.get(i);
                }
            }
            return null;
        });
    }

    /** The provider of a registration, or null. */
    private static String providerOf(JsonNode registration) {
        for (String p : PROVIDERS) {
            if (registration.hasNonNull(p)) {
                return p;
            }
        }
        return null;
    }

    /** How many registrations a user's push state holds; empty for a tombstone. */
    private static Column count(String name, int width) {
        return new Column(name, width, Set.of("registrations"),
                r -> r.value.bytes() == null || !r.value.isJson() ? null : Integer.toString(r.value.list("registrations").size()));
    }

    /** A user's push registrations as {@code id:provider} pairs, oldest first (their addresses only in JSONL). */
    private static Column registrations(String name, int width) {
        return new Column(name, width, Set.of("registrations"), r -> r.value.list("registrations").stream()
                .map(Columns::registrationText).collect(Collectors.joining(";")));
    }

    private static String registrationText(String json) {
        return tree(json, reg -> reg.path("id").asText() + ":" + providerOf(reg));
    }

    /** The change that made a push state: {@code kind id}, then the reason in parentheses where one was given. */
    private static Column lastChange(String name, int width) {
        return new Column(name, width, Set.of("change.kind", "change.id", "change.reason"), r -> {
            String kind = r.value.text("change.kind");
            if (kind == null) {
                return null;
            }
            String id = r.value.text("change.id");
            String reason = r.value.text("change.reason");
            return kind + (id == null ? "" : " " + id) + (reason == null ? "" : " (" + reason + ")");
        });
    }

    /** A push outcome's HTTP status; empty where none came (0). */
    private static Column httpStatus(String name, int width) {
        return new Column(name, width, Set.of("status"), r -> {
            String s = r.value.text("status");
            return "0".equals(s) ? null : s;
        });
    }

    /** The registration a push DLQ record is about: its header, or the one registration the narrowed record holds. */
    private static Column dlqRegistration(String name, int width) {
        return new Column(name, width, Set.of("push"), r -> {
            String h = r.header(PUSH_REGISTRATION_HEADER);
            if (h != null) {
                return h;
            }
            JsonNode only = onlyRegistration(r);
            return only == null || !only.hasNonNull("id") ? null : only.path("id").asText();
        });
    }

    /** The provider of the one registration a push DLQ record holds. */
    private static Column dlqProvider(String name, int width) {
        return new Column(name, width, Set.of("push"), r -> {
            JsonNode only = onlyRegistration(r);
            return only == null ? null : providerOf(only);
        });
    }

    private static JsonNode onlyRegistration(Row r) {
        List<String> push = r.value.list("push");
        if (push.isEmpty()) {
            return null;
        }
        try {
            return NotifyJson.mapper().readTree(push.get(0));
        } catch (IOException e) {
            return null;
        }
    }

    private static Column header(String name, String header) {
        return new Column(name, 0, Set.of(), r -> r.header(header));
    }

    private static Column eventClass(String name) {
        return new Column(name, 0, Set.of("class"), r -> eventClassOf(r, "class"));
    }

    /** An envelope without "class" is durable (the event-v1 default). */
    private static String eventClassOf(Row r, String path) {
        String c = r.value.text(path);
        return c != null ? c : r.value.isJson() ? "durable" : null;
    }

    private static String routingCell(Row r) {
        return r.routing() == null ? null : r.routing().stream().map(Routing::label).collect(Collectors.joining(";"));
    }
}
