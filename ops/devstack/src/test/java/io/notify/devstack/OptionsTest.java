package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OptionsTest {

    @Test
    void brokerDefaultsPickPortsAndUseATemporaryDir() {
        BrokerOptions o = BrokerOptions.defaults();
        assertEquals(0, o.port());
        assertEquals(0, o.controllerPort());
        assertNull(o.dataDir());
        assertEquals(3, o.numPartitions());
        assertEquals(Map.of(), o.extraProperties());
    }

    @Test
    void brokerWithersReplaceOneField() {
        BrokerOptions o = BrokerOptions.defaults().withPort(9092).withControllerPort(9093)
                .withProperty("a", "1").withProperty("a", "2").withNumPartitions(6);
        assertEquals(9092, o.port());
        assertEquals(9093, o.controllerPort());
        assertEquals(Map.of("a", "2"), o.extraProperties());
        assertEquals(6, o.numPartitions());
    }

    @Test
    void brokerValidationNamesTheField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BrokerOptions.defaults().withNumPartitions(0));
        assertTrue(e.getMessage().contains("numPartitions"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> BrokerOptions.defaults().withPort(9092).withControllerPort(9092));
        assertTrue(e.getMessage().contains("controllerPort"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> BrokerOptions.defaults().withStartTimeout(Duration.ZERO));
        assertTrue(e.getMessage().contains("startTimeout"), e.getMessage());
    }

    @Test
    void devStackDevPortsAreTheDocumentedOnes() {
        DevStackOptions dev = DevStackOptions.dev(Path.of("data"));
        assertEquals(9092, dev.kafkaPort());
        assertEquals(9093, dev.kafkaControllerPort());
        assertEquals(6379, dev.redisPort());
        assertEquals(Path.of("data", "kafka"), dev.brokerOptions().dataDir());
        assertEquals(Path.of("data", "redis"), dev.redisOptions().dataDir());
        assertEquals(9092, dev.brokerOptions().port());
        assertEquals(6379, dev.redisOptions().port());
    }

    @Test
    void devStackForTestsUsesFreePortsAndTemporaryDirs() {
        DevStackOptions tests = DevStackOptions.forTests();
        assertEquals(0, tests.kafkaPort());
        assertEquals(0, tests.redisPort());
        assertNull(tests.brokerOptions().dataDir());
        assertNull(tests.redisOptions().dataDir());
    }

    @Test
    void devStackMainParsesOverrides() {
        DevStackOptions o = DevStackMain.parse(new String[] {
            "--data-dir", "/tmp/x", "--kafka-port", "19092", "--kafka-controller-port", "19093", "--redis-port", "16379"});
        assertEquals(new DevStackOptions(19092, 19093, 16379, Path.of("/tmp/x"), 3), o);
        assertEquals(DevStackOptions.dev(Path.of(".notify-dev")), DevStackMain.parse(new String[0]));
        assertEquals(DevStackOptions.dev(Path.of("/tmp/y")), DevStackMain.parse(new String[] {"/tmp/y"}));
        assertThrows(IllegalArgumentException.class, () -> DevStackMain.parse(new String[] {"--kafka-port"}));
        assertThrows(IllegalArgumentException.class, () -> DevStackMain.parse(new String[] {"--kafka-port", "x"}));
        assertThrows(IllegalArgumentException.class, () -> DevStackMain.parse(new String[] {"--nope", "1"}));
    }

    @Test
    void devStackValidationNamesTheField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DevStackOptions.forTests().withRedisPort(70000));
        assertTrue(e.getMessage().contains("redisPort"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> DevStackOptions.forTests().withKafkaPort(9092).withKafkaControllerPort(9092));
        assertTrue(e.getMessage().contains("kafkaControllerPort"), e.getMessage());
    }

    @Test
    void redisValidation() {
        assertThrows(IllegalArgumentException.class, () -> RedisOptions.defaults().withPort(-1));
        assertEquals(6379, RedisOptions.defaults().withPort(6379).port());
    }
}
