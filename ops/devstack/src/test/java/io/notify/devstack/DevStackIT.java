package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(90)
class DevStackIT {

    @Test
    void kafkaTopicsSurviveARestartOnTheSameDataDirAndPorts(@TempDir Path dataDir) throws Exception {
        int[] ports = FreePorts.pick(3);
        DevStackOptions options = new DevStackOptions(ports[0], ports[1], ports[2], dataDir, 3);

        try (DevStack stack = DevStack.start(options)) {
            assertEquals("127.0.0.1:" + ports[0], stack.bootstrapServers());
            assertEquals("redis://127.0.0.1:" + ports[2], stack.redisUri());
            assertTrue(stack.redis().ping());
            try (Admin admin = admin(stack)) {
                admin.createTopics(List.of(new NewTopic("kept", 2, (short) 1))).all().get(20, TimeUnit.SECONDS);
            }
            KafkaTestClients.send(stack.bootstrapServers(), "kept", "k", "v1");
        }
        assertTrue(Files.isDirectory(dataDir.resolve("kafka").resolve("kraft-logs")), "a given data dir is kept");

        try (DevStack again = DevStack.start(options)) {
            try (Admin admin = admin(again)) {
                assertTrue(admin.listTopics().names().get(20, TimeUnit.SECONDS).contains("kept"));
            }
            assertEquals(List.of("v1"),
                    KafkaTestClients.values(KafkaTestClients.consume(again.bootstrapServers(), "kept", 1, Map.of())));
        }
    }

    @Test
    void mainRunsUntilSigtermThenStopsBoth(@TempDir Path dataDir) throws Exception {
        int[] ports = FreePorts.pick(3);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", KafkaBrokerProcess.absolute(System.getProperty("java.class.path")),
                DevStackMain.class.getName(), dataDir.toString(),
                "--kafka-port", String.valueOf(ports[0]),
                "--kafka-controller-port", String.valueOf(ports[1]),
                "--redis-port", String.valueOf(ports[2])));
        Path outputFile = dataDir.resolve("main.out");
        Process main = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(outputFile.toFile()).start();
        try {
            Deadline.in(Duration.ofSeconds(60)).await("DevStackMain ready", Duration.ofMillis(50),
                    () -> read(outputFile).contains("devstack: Kafka 127.0.0.1:" + ports[0]) || !main.isAlive());
            assertTrue(read(outputFile).contains("Redis redis://127.0.0.1:" + ports[2]), read(outputFile));
            assertEquals("+PONG", RedisPing.ping("127.0.0.1", ports[2], Duration.ofSeconds(2)));
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + ports[0]))) {
                assertEquals(1, admin.describeCluster().nodes().get(20, TimeUnit.SECONDS).size());
            }

            main.destroy(); // SIGTERM, as Ctrl-C's SIGINT: shutdown hook closes the stack
            assertTrue(main.waitFor(30, TimeUnit.SECONDS), "DevStackMain exits after SIGTERM");
            assertTrue(read(outputFile).contains("devstack: stopping"), read(outputFile));
            assertFalse(new RedisServer(RedisOptions.defaults().withPort(ports[2]).withDataDir(dataDir.resolve("probe")))
                    .ping(), "Redis child was stopped with the JVM");
        } finally {
            main.destroyForcibly();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private static Admin admin(DevStack stack) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()));
    }
}
