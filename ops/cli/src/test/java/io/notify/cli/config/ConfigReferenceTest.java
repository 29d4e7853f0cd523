package io.notify.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference cannot drift: the committed docs/config pages are what the config
 * records read today, every key read has a meaning and every meaning a key, and every
 * {@code "notify.…"} literal the services pass to {@code Settings} is in the reference (so a key read
 * only under some condition the generator does not reach fails here, not silently).
 */
class ConfigReferenceTest {

    private static final Path ROOT = Path.of("../..");
    /** The modules whose config records the services load. */
    private static final List<String> SERVICE_SOURCES = List.of("common", "registry", "gateway/server", "ingest", "fanout-streams");
    /** A literal key handed to a Settings read: {@code s.duration("notify.x", ...)}, {@code settings.list("notify.y")}. */
    private static final Pattern READ = Pattern.compile(
            "\\.(string|required|intIn|longIn|bool|duration|list|raw|withPrefix)\\(\\s*\"(notify\\.[^\"]*)\"");

    @Test
    void theCommittedPagesAreTheGeneratedOnes() throws IOException {
        for (Map.Entry<String, String> page : ConfigReference.pages().entrySet()) {
            Path file = ROOT.resolve("docs/config").resolve(page.getKey());
            String committed = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(missing)";
            assertEquals(page.getValue(), committed, "docs/config/" + page.getKey() + " differs from what the config records read: run "
                    + ConfigReference.REGENERATE + " to regenerate");
        }
    }

    @Test
    void everyKeyReadHasAMeaningAndEveryMeaningAKeyRead() {
        Set<String> read = readKeys();
        Set<String> described = new TreeSet<>();
        Set<String> defaults = new TreeSet<>();
        for (Map.Entry<String, Map<String, String>> file : ConfigReference.meaningFiles().entrySet()) {
            for (String key : file.getValue().keySet()) {
                if (key.startsWith(ConfigReference.DEFAULT_PREFIX)) {
                    defaults.add(key.substring(ConfigReference.DEFAULT_PREFIX.length()));
                } else {
                    assertTrue(described.add(key), key + " is described twice (again in " + file.getKey() + ")");
                    assertTrue(!file.getValue().get(key).isBlank(), key + " has an empty meaning in " + file.getKey());
                }
            }
        }
        assertEquals(Set.of(), minus(read, described), "keys the config records read without a meaning in any config-reference.properties");
        assertEquals(Set.of(), minus(described, read), "keys described in a config-reference.properties that no config record reads any more");
        assertEquals(Set.of(), minus(defaults, read), "default.<key> entries of keys no config record reads");
    }

    @Test
    void everyKeyLiteralPassedToSettingsIsInTheReference() throws IOException {
        Set<String> literals = new TreeSet<>();
        for (String module : SERVICE_SOURCES) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src/main/java"))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = READ.matcher(Files.readString(f, StandardCharsets.UTF_8));
                    while (m.find()) {
                        literals.add(m.group(1).equals("withPrefix") ? m.group(2) + "*" : m.group(2));
                    }
                }
            }
        }
        assertTrue(literals.size() > 100, "the source scan found only " + literals + ": has the layout changed?");
        assertEquals(Set.of(), minus(literals, readKeys()), "keys passed to Settings in the services' sources that the generator "
                + "never saw read: a conditional read ServiceKeys does not reach (give it the settings that do), or a record it does not load");
    }

    private static Set<String> readKeys() {
        Set<String> keys = new TreeSet<>();
        ServiceKeys.all().forEach(s -> keys.addAll(s.reads().keySet()));
        return keys;
    }

    private static Set<String> minus(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.removeAll(b);
        return out;
    }
}
