package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class RedisServerIT {

    private static RedisClient client;

    @BeforeAll
    static void client() {
        client = RedisClient.create();
    }

    private static RedisURI uri(RedisServer redis) {
        RedisURI uri = RedisURI.create(redis.uri());
        uri.setTimeout(Duration.ofSeconds(5));
        return uri;
    }

    @AfterAll
    static void closeClient() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    @Test
    void startPingSetGetAndRestartOnTheSamePort() throws Exception {
        try (RedisServer redis = RedisServer.start(RedisOptions.defaults())) {
            assertEquals("redis://127.0.0.1:" + redis.port(), redis.uri());
            assertEquals("+PONG", RedisPing.ping("127.0.0.1", redis.port(), Duration.ofSeconds(2)));

            try (StatefulRedisConnection<String, String> connection = client.connect(uri(redis))) {
                RedisCommands<String, String> commands = connection.sync();
                assertEquals("PONG", commands.ping());
                commands.set("k", "v");
                assertEquals("v", commands.get("k"));
            }

            int port = redis.port();
            redis.restart();
            assertEquals(port, redis.port());
            assertTrue(redis.ping());
            try (StatefulRedisConnection<String, String> connection = client.connect(uri(redis))) {
                assertNull(connection.sync().get("k"), "persistence is off: a restart starts empty");
            }
        }
    }

    @Test
    void stopAndKillEndTheProcessAndStartComesBack() {
        try (RedisServer redis = new RedisServer().start()) {
            redis.stop();
            assertFalse(redis.isAlive());
            assertFalse(redis.ping());
            assertThrows(IOException.class, () -> RedisPing.ping("127.0.0.1", redis.port(), Duration.ofSeconds(1)));

            redis.start();
            assertTrue(redis.ping());

            redis.kill();
            assertFalse(redis.isAlive());
            assertFalse(redis.ping());

            redis.start();
            assertTrue(redis.ping());
        }
    }

    @Test
    void embeddedBinaryFromTheJarWorksWithoutRedisOnPath() {
        Path binary = RedisBinary.embedded();
        try (RedisServer redis = RedisServer.start(RedisOptions.defaults().withBinary(binary));
                StatefulRedisConnection<String, String> connection = client.connect(uri(redis))) {
            assertEquals(binary, redis.binary());
            String info = connection.sync().info("server");
            assertTrue(info.contains("redis_version:6.2"), info);
        }
    }

    @Test
    void busyPortFailsFastWithTheServerOutput() {
        try (RedisServer first = new RedisServer().start()) {
            RedisServer second = new RedisServer(RedisOptions.defaults().withPort(first.port()));
            IllegalStateException e = assertThrows(IllegalStateException.class, second::start);
            second.close();
            assertTrue(e.getMessage().contains(String.valueOf(first.port())), e.getMessage());
            assertTrue(first.ping(), "the first server is untouched");
        }
    }

    @Test
    void closeDeletesTheTemporaryDir() {
        Path dir;
        try (RedisServer redis = new RedisServer().start()) {
            dir = redis.dataDir();
            assertTrue(Files.isDirectory(dir));
        }
        assertFalse(Files.exists(dir));
    }
}
