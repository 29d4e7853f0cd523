package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.utils.internals.Exit;
import org.junit.jupiter.api.Test;

class KafkaExitGuardTest {

    @Test
    void haltAndExitFromKafkaCodeThrowInsteadOfEndingTheJvm() {
        KafkaExitGuard.install();
        KafkaExitGuard.install(); // idempotent

        // without the guard this would end the test JVM and the build would fail loudly
        KafkaExitGuard.FatalBrokerExit halt = assertThrows(KafkaExitGuard.FatalBrokerExit.class,
                () -> Exit.halt(1, "simulated fatal error"));
        assertTrue(halt.getMessage().contains("halt") && halt.getMessage().contains("simulated fatal error"));
        assertSame(halt, KafkaExitGuard.lastFatal());

        KafkaExitGuard.FatalBrokerExit exit = assertThrows(KafkaExitGuard.FatalBrokerExit.class, () -> Exit.exit(3));
        assertTrue(exit.getMessage().contains("status 3"), exit.getMessage());
    }
}
