package io.notify.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Keeps the SDK lean (issue 18): an application that depends on notify-client gets the protocol
 * module, Jackson and SLF4J's API, never Kafka's client, the JSON-schema validator or notify-schemas,
 * and nothing of the SDK's test scope. Reads the runtime dependency list Maven writes in
 * generate-test-resources (maven-dependency-plugin {@code list}, includeScope=runtime: exactly
 * what a consumer's build resolves); it must name notify-protocol and Jackson, so the test cannot
 * pass on an empty or unreadable list.
 */
class RuntimeClasspathTest {

    private static final Path LIST = Path.of("target", "runtime-dependencies.txt");
    /** groupId:artifactId:type[:classifier]:version:scope, as the list goal writes each dependency. */
    private static final Pattern COORDINATES = Pattern.compile("^\\s*([\\w.-]+):([\\w.-]+):[\\w.-]+:.*$");

    @Test
    void theSdkNeedsNoKafkaNoSchemaValidatorAndNoSchemasModule() throws IOException {
        Set<String> artifacts = runtimeArtifacts();
        assertTrue(artifacts.contains("io.notify:notify-protocol"), "notify-protocol missing from " + artifacts);
        assertTrue(artifacts.contains("com.fasterxml.jackson.core:jackson-databind"), "jackson-databind missing from " + artifacts);
        for (String artifact : artifacts) {
            assertFalse(artifact.startsWith("org.apache.kafka:"), "Kafka on the SDK's runtime classpath: " + artifact);
            assertFalse(artifact.startsWith("com.networknt:"), "the JSON-schema validator on the SDK's runtime classpath: " + artifact);
            assertFalse(artifact.equals("io.notify:notify-schemas"), "notify-schemas on the SDK's runtime classpath");
        }
    }

    @Test
    void nothingOfTheTestScopeReachesAnApplication() throws IOException {
        Set<String> artifacts = runtimeArtifacts();
        for (String testOnly : List.of("io.notify:notify-devstack", "io.notify:notify-platform", "io.notify:notify-gateway",
                "org.junit.jupiter:junit-jupiter", "ch.qos.logback:logback-classic")) {
            assertFalse(artifacts.contains(testOnly), testOnly + " leaks to applications: " + artifacts);
        }
        Set<String> allowedGroups = Set.of("io.notify", "com.fasterxml.jackson.core", "com.fasterxml.jackson.datatype", "org.slf4j");
        for (String artifact : artifacts) {
            assertTrue(allowedGroups.contains(artifact.substring(0, artifact.indexOf(':'))),
                    "a new runtime dependency of the SDK: " + artifact + "; keep the SDK lean or extend this list on purpose");
        }
    }

    private static Set<String> runtimeArtifacts() throws IOException {
        assertTrue(Files.isRegularFile(LIST), LIST.toAbsolutePath() + " missing: run through Maven (generate-test-resources writes it)");
        Set<String> artifacts = new TreeSet<>();
        for (String line : Files.readAllLines(LIST)) {
            Matcher m = COORDINATES.matcher(line);
            if (m.matches()) {
                artifacts.add(m.group(1) + ":" + m.group(2));
            }
        }
        assertFalse(artifacts.isEmpty(), "no dependency read from " + LIST.toAbsolutePath());
        return artifacts;
    }
}
