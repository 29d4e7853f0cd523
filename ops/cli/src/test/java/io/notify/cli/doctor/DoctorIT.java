package io.notify.cli.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.api.StatefulRedisConnection;
import io.notify.cli.replay.Cli;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.platform.Platform;
import io.notify.registry.RegistryClients;
import io.notify.registry.RegistryConnection;
import io.notify.registry.RegistryRedis;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * notifyctl doctor against a running platform (ingest, fanout-streams, one gateway) on the run's
 * Kafka and Redis: healthy, every finding is OK and the exit code 0; then one breakage at a time, each
 * named by its check with the exit code it earns, and undone before the next.
 */
@ExtendWith(NotifyInfraExtension.class)
class DoctorIT {

    private static final String DELETE = TopicConfig.CLEANUP_POLICY_DELETE;

    @Test
    void aHealthyPlatformIsAllOkAndEachBreakageIsNamedWithItsExitCode(Infra infra, @TempDir Path dir) throws Exception {
        TopicCatalog topics = TopicCatalog.of(infra.prefix());
        try (Platform platform = Platform.forTest(infra, dir).gateways("gw-1").start();
             Admin admin = infra.adminClient()) {
            // the kit creates topics with the broker's 7-day retention; docs/topics.md keeps these two for 30 days
            alter(admin, topics.eventsDlq().name(), TopicConfig.RETENTION_MS_CONFIG, Long.toString(Duration.ofDays(30).toMillis()));
            alter(admin, topics.streamLog().name(), TopicConfig.RETENTION_MS_CONFIG, Long.toString(Duration.ofDays(30).toMillis()));

            Cli.Result healthy = doctor(infra);
            assertEquals(0, healthy.code(), healthy.out() + healthy.err());
            for (String check : Doctor.CHECKS) {
                assertTrue(healthy.out().contains("OK    " + check), "an OK line of " + check + ":\n" + healthy.out());
            }
            assertTrue(healthy.lines().stream().allMatch(l -> l.startsWith("OK ")), healthy.out());
            assertTrue(healthy.out().contains("1 gateway(s) alive and refreshing their liveness keys: gw-1"), healthy.out());
            assertTrue(healthy.err().contains("doctor: 0 FAIL, 0 WARN, "), healthy.err());

            String state = topics.inboxState().name();
            alter(admin, state, TopicConfig.CLEANUP_POLICY_CONFIG, DELETE);
            Cli.Result deleting = doctor(infra, "--checks", "topics");
            assertEquals(2, deleting.code(), deleting.out());
            assertTrue(deleting.out().contains("FAIL  topics    " + state + " has cleanup.policy=delete, must be compact"), deleting.out());
            assertTrue(deleting.out().contains("fix: kafka-configs.sh --alter --entity-type topics --entity-name " + state
                    + " --add-config cleanup.policy=compact"), deleting.out());
            alter(admin, state, TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);

            String undelivered = topics.undelivered().name();
            alter(admin, undelivered, TopicConfig.RETENTION_MS_CONFIG, Long.toString(Duration.ofHours(1).toMillis()));
            Cli.Result short_ = doctor(infra, "--checks", "topics");
            assertEquals(1, short_.code(), "a warning only: " + short_.out());
            assertTrue(short_.out().contains("WARN  topics    " + undelivered + " keeps records 1h, less than the documented 3d"), short_.out());
            alter(admin, undelivered, TopicConfig.RETENTION_MS_CONFIG, Long.toString(Duration.ofDays(3).toMillis()));

            try (RegistryRedis client = RegistryClients.create(infra.redisUri(), false, Duration.ofSeconds(5));
                 RegistryConnection connection = client.connect()) {
                StatefulRedisConnection<String, String> redis = connection.standalone();
                String ghost = infra.prefix() + "nf:alive:ghost";
                redis.sync().setex(ghost, 60, "inc-ghost"); // as a node that died with a long TTL would leave it: nobody refreshes it
                Cli.Result stale = doctor(infra, "--checks", "liveness");
                assertEquals(2, stale.code(), stale.out());
                assertTrue(stale.out().contains("FAIL  liveness  " + ghost + " is not refreshed by any node but lives "), stale.out());
                assertTrue(stale.out().contains("fix: DEL " + ghost + " if node ghost does not run"), stale.out());
                assertTrue(stale.out().contains("OK    liveness  1 gateway(s) alive"), "gw-1 still judged alive: " + stale.out());
                redis.sync().del(ghost);
            }

            Cli.Result mismatch = doctor(infra, "--checks", "redis", "--set", "notify.redis.cluster=true");
            assertEquals(2, mismatch.code(), mismatch.out());
            assertTrue(mismatch.out().contains("FAIL  redis     Redis at " + infra.redisUri() + " is standalone but notify.redis.cluster=true"),
                    mismatch.out());

            Cli.Result usage = doctor(infra, "--checks", "topics,nerves");
            assertEquals(2, usage.code());
            assertTrue(usage.err().contains("--checks: unknown check 'nerves'"), usage.err());
            assertEquals("", usage.out(), "bad usage checks nothing");
        }
    }

    /** doctor with the platform's connection and the settings the test platform runs with. */
    private static Cli.Result doctor(Infra infra, String... more) {
        List<String> args = new ArrayList<>(List.of("doctor", "--bootstrap-servers", infra.bootstrapServers(), "--topic-prefix", infra.prefix(),
                "--timeout", "10s", "--replication", "1", "--set", "notify.redis.uri=" + infra.redisUri(),
                "--set", "notify.gateway.node-topic-partitions=2"));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    private static void alter(Admin admin, String topic, String key, String value) throws Exception {
        admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic),
                List.of(new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET)))).all().get(10, TimeUnit.SECONDS);
    }
}
