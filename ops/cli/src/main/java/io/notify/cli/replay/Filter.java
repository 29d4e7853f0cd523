package io.notify.cli.replay;

import io.notify.protocol.event.Recipients;
import io.notify.protocol.stream.StreamId;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The record filters of replay and tail. Repeating a flag widens it (any of the values matches);
 * different flags narrow (all must match). Matching is exact and case-sensitive; {@code --type}
 * takes globs ({@link Glob}). Where a record's value cannot be read as JSON, field filters do not
 * match it, except where the key repeats the field ({@link SourceTopic#keyPath}): {@code --id} on the
 * DLQ, {@code --user} on receipts and inbox-state. A filter on a field the topic's records do not
 * have ({@code --type} on receipts) is refused.
 */
final class Filter {

    private final SourceTopic topic;
    private final Set<String> users;
    private final Set<String> streams = new HashSet<>();
    private final List<Predicate<String>> types;
    private final Set<String> ids;
    private final String eventClass;

    Filter(SourceTopic topic, List<String> users, List<String> typeGlobs, List<String> ids, String eventClass) {
        this.topic = topic;
        applies(topic, "--type", !typeGlobs.isEmpty(), topic.typePath, "event type");
        applies(topic, "--class", eventClass != null, topic.classPath, "event class");
        applies(topic, "--id", !ids.isEmpty(), topic.idPath, "event ids");
        this.users = Set.copyOf(users);
        for (String u : users) {
            if (!Recipients.USER_ID.matcher(u).matches()) {
                throw new UsageException("--user: '" + u + "' is not a user id (1..128 chars of [A-Za-z0-9._:@-])");
            }
            streams.add(StreamId.forUser(u).value());
        }
        this.types = typeGlobs.stream().map(Glob::compile).toList();
        this.ids = Set.copyOf(ids);
        if (eventClass != null && !eventClass.equals("durable") && !eventClass.equals("ephemeral")) {
            throw new UsageException("--class: expected durable or ephemeral, got '" + eventClass + "'");
        }
        this.eventClass = eventClass;
    }

    private static void applies(SourceTopic topic, String option, boolean given, String path, String what) {
        if (given && path == null) {
            throw new UsageException(option + " does not apply to " + topic.shortName + " (its records have no " + what + ")");
        }
    }

    boolean hasUsers() {
        return !users.isEmpty();
    }

    Set<String> users() {
        return users;
    }

    /** The value paths the filters read. */
    Set<String> paths() {
        Set<String> p = new HashSet<>();
        if (!users.isEmpty()) {
            p.add(topic.userPath);
        }
        if (!types.isEmpty()) {
            p.add(topic.typePath);
        }
        if (!ids.isEmpty()) {
            p.add(topic.idPath);
        }
        if (eventClass != null) {
            p.add(topic.classPath);
        }
        return p;
    }

    boolean matches(Row row) {
        ValueScan v = row.value;
        if (!users.isEmpty() && topic.values(row, topic.userPath).stream()
                .noneMatch(topic.userIsStream ? streams::contains : users::contains)) {
            return false;
        }
        if (!types.isEmpty()) {
            String type = v.text(topic.typePath);
            if (types.stream().noneMatch(t -> t.test(type))) {
                return false;
            }
        }
        if (!ids.isEmpty() && topic.values(row, topic.idPath).stream().noneMatch(ids::contains)) {
            return false;
        }
        if (eventClass != null) {
            String c = v.text(topic.classPath);
            // An envelope without "class" is durable (event-v1 default); an unreadable value has no class.
            return eventClass.equals(c != null ? c : v.isJson() ? "durable" : null);
        }
        return true;
    }
}
