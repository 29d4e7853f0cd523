package io.notify.protocol.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.event.Recipients;
import io.notify.protocol.stream.Endpoints;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

/** The loop checks give exactly the answers of the documented patterns, on edge cases and 20,000 random strings each. */
class IdCharsTest {

    private static final String ALPHABET = "aZ09._:-@{}| /\\u00e9\u00e9\u0000";

    private static List<String> samples() {
        List<String> out = new ArrayList<>(List.of("", "a", ".", "..", "-a", "a-", "u:", "u:1", "u:a@b", "r:1", "x".repeat(64),
                "x".repeat(65), "x".repeat(128), "x".repeat(129), "x".repeat(249), "x".repeat(250), "a b", "a|b", "é", "A9._:-"));
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder(r.nextBoolean() ? "u:" : "");
            int n = r.nextInt(r.nextInt(20) == 0 ? 260 : 8);
            for (int k = 0; k < n; k++) {
                b.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
            }
            out.add(b.toString());
        }
        return out;
    }

    private static void agree(String name, Pattern rule, Predicate<String> check) {
        for (String s : samples()) {
            assertEquals(rule.matcher(s).matches(), check.test(s), name + " on '" + s + "'");
        }
    }

    private static boolean accepts(Runnable r) {
        try {
            r.run();
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Test
    void everyLoopCheckAgreesWithItsPattern() {
        agree("event id", EventIds.ID, EventIds::isValid);
        agree("user id", Recipients.USER_ID, Recipients::isUserId);
        agree("type", EventEnvelope.TYPE, EventEnvelope::isType);
        agree("stream", StreamId.PATTERN, s -> accepts(() -> StreamId.parse(s)));
        agree("epoch", Position.EPOCH, s -> accepts(() -> Position.of(s, 1)));
        agree("node id", Endpoints.NODE_ID, s -> accepts(() -> Endpoints.requireNodeId(s)));
        agree("connection id", Endpoints.CONNECTION_ID, s -> accepts(() -> Endpoints.requireConnectionId(s)));
        Pattern topic = Pattern.compile("^(?!\\.{1,2}$)" + Topic.LEGAL_NAME.pattern().substring(1)); // '.' and '..' are refused too
        agree("topic", topic, s -> accepts(() -> new Topic<>(s, Serdes.String(), Serdes.String(), "k", "v")));
    }
}
