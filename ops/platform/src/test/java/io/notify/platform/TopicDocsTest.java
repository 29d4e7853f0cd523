package io.notify.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/topics.md states each topic's partitions for production and for {@code notifyctl dev},
 * bench and chaos, and docs/asyncapi.yaml the production ones; they are the ones
 * {@link PlatformConfig.Partitions} creates (the one place the counts live), so the docs and the
 * platform cannot drift apart again.
 */
class TopicDocsTest {

    private static final Pattern ROW = Pattern.compile("\\| partitions \\| (\\d+) in production \\((\\d+) in `notifyctl dev`");

    @Test
    void thePartitionsOfEveryTopicAreTheOnesThePlatformCreates() throws IOException {
        String doc = Files.readString(Path.of("..", "..", "docs", "topics.md"));
        PlatformConfig.Partitions prod = PlatformConfig.Partitions.PRODUCTION;
        PlatformConfig.Partitions dev = PlatformConfig.Partitions.DEV;
        Map<String, int[]> expected = Map.of(
                "notify.events", new int[] {prod.events(), dev.events()},
                "notify.events.dlq", new int[] {prod.dlq(), dev.dlq()},
                "notify.stream-log", new int[] {prod.streamLog(), dev.streamLog()},
                "notify.undelivered", new int[] {prod.undelivered(), dev.undelivered()});
        expected.forEach((topic, counts) -> {
            String section = section(doc, topic);
            Matcher m = ROW.matcher(section);
            assertTrue(m.find(), topic + ": no '| partitions | N in production (M in `notifyctl dev`' row");
            assertEquals(counts[0], Integer.parseInt(m.group(1)), topic + " in production");
            assertEquals(counts[1], Integer.parseInt(m.group(2)), topic + " in notifyctl dev, bench and chaos");
        });
    }

    /** docs/asyncapi.yaml's kafka bindings give the production counts too. */
    @Test
    void theAsyncApiDocumentGivesTheProductionPartitions() throws IOException {
        String doc = Files.readString(Path.of("..", "..", "docs", "asyncapi.yaml"));
        PlatformConfig.Partitions prod = PlatformConfig.Partitions.PRODUCTION;
        Map.of("notify.events", prod.events(), "notify.events.dlq", prod.dlq(), "notify.stream-log", prod.streamLog(),
                "notify.undelivered", prod.undelivered()).forEach((topic, count) -> {
            Matcher m = Pattern.compile("\n {8}topic: " + Pattern.quote(topic) + "\n {8}partitions: (\\d+)\n").matcher(doc);
            assertTrue(m.find(), topic + ": no kafka binding 'topic: " + topic + "' followed by 'partitions: N'");
            assertEquals(count, Integer.parseInt(m.group(1)), topic + " in docs/asyncapi.yaml");
        });
    }

    private static String section(String doc, String topic) {
        int start = doc.indexOf("\n## " + topic + "\n");
        assertTrue(start >= 0, "docs/topics.md has no section " + topic);
        int end = doc.indexOf("\n## ", start + 1);
        return doc.substring(start, end < 0 ? doc.length() : end);
    }
}
