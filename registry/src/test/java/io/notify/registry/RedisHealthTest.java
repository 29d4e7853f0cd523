package io.notify.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** How each side reports Redis's availability. */
class RedisHealthTest {

    @Test
    void availabilityIsLoggedOncePerChangeAndExportedAsAGauge() {
        Logger logger = (Logger) LoggerFactory.getLogger("test.health");
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(ch.qos.logback.classic.Level.INFO);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        RedisHealth health = new RedisHealth("test", logger, meters, Tags.of("role", "test"));
        double gauge0 = meters.get(RedisHealth.GAUGE).gauge().value();

        for (int i = 0; i < 100; i++) {
            health.down("connection lost");
        }
        health.up();
        health.up();
        health.down("timeout");

        assertEquals(0.0, gauge0);
        assertEquals(0.0, meters.get(RedisHealth.GAUGE).gauge().value());
        assertEquals(List.of("WARN", "INFO", "WARN"),
                appender.list.stream().map(e -> e.getLevel().toString()).toList());
    }
}
