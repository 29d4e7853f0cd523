package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaBrokerProcessTest {

    @Test
    void childClasspathIsAbsoluteBecauseTheChildRunsInTheDataDir() {
        String cp = "target/classes" + File.pathSeparator + "/opt/lib/a.jar" + File.pathSeparator;
        String[] entries = KafkaBrokerProcess.absolute(cp).split(File.pathSeparator);
        assertEquals(2, entries.length);
        assertEquals(Path.of("target/classes").toAbsolutePath().toString(), entries[0]);
        assertEquals("/opt/lib/a.jar", entries[1]);
    }

    @Test
    void shortSessionUnlessTheCallerSetOne() {
        BrokerOptions fast = KafkaBrokerProcess.withFastReRegistration(BrokerOptions.defaults());
        assertEquals("3000", fast.extraProperties().get("broker.session.timeout.ms"));
        assertEquals("500", fast.extraProperties().get("broker.heartbeat.interval.ms"));

        BrokerOptions own = KafkaBrokerProcess.withFastReRegistration(
                BrokerOptions.defaults().withProperty("broker.session.timeout.ms", "9000"));
        assertEquals("9000", own.extraProperties().get("broker.session.timeout.ms"));
    }

    @Test
    void existingClusterIdIsReusedWhenFormattingAgain(@TempDir Path logDir) throws Exception {
        assertEquals(Optional.empty(), KafkaStorage.existingClusterId(logDir));
        Files.writeString(logDir.resolve("meta.properties"), "version=1\ncluster.id=abcDEF123\nnode.id=1\n");
        assertEquals(Optional.of("abcDEF123"), KafkaStorage.existingClusterId(logDir));
        assertTrue(Files.exists(logDir.resolve("meta.properties")));
    }
}
