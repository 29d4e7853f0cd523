package io.notify.cli.why;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.cli.replay.TimeText;
import io.notify.cli.replay.UsageException;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * A timeline as a table for people ({@code TIME  STEP  DETAIL}, a missing time as {@code -}) or as
 * one JSON object: the question (user, event, stream, window), whether the event was found, and the
 * steps, each with its time, name, sentence and facts.
 */
final class TimelineWriter {

    private TimelineWriter() {
    }

    /** The output formats of {@code why}. */
    enum Format {
        TABLE, JSON;

        static Format parse(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new UsageException("unknown format '" + text + "'; expected table or json");
            }
        }
    }

    static String table(Timeline timeline) {
        TimeText time = new TimeText();
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-24s  %-12s  %s%n", "TIME", "STEP", "DETAIL"));
        for (Step s : timeline.steps()) {
            out.append(String.format(Locale.ROOT, "%-24s  %-12s  %s%n", s.time() == null ? "-" : time.format(s.time()),
                    s.step(), s.detail().replaceAll("\\p{Cntrl}", " ")));
        }
        return out.toString();
    }

    static String json(Question question, Timeline timeline) {
        ObjectMapper mapper = NotifyJson.mapper();
        TimeText time = new TimeText();
        ObjectNode root = mapper.createObjectNode();
        root.put("user", question.user());
        root.put("event", question.eventId());
        root.put("stream", question.stream());
        root.put("from", time.format(question.from().toEpochMilli()));
        root.put("to", time.format(question.to().toEpochMilli()));
        root.put("found", timeline.found());
        ArrayNode steps = root.putArray("steps");
        for (Step s : timeline.steps()) {
            ObjectNode step = steps.addObject();
            if (s.time() == null) {
                step.putNull("time");
            } else {
                step.put("time", time.format(s.time()));
            }
            step.put("step", s.step());
            step.put("detail", s.detail());
            s.facts().forEach((k, v) -> step.set(k, mapper.valueToTree(v)));
        }
        try {
            return mapper.writeValueAsString(root) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
