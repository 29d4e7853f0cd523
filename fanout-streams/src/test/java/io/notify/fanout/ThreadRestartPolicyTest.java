package io.notify.fanout;

import static org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
import static org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.notify.devstack.TestClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ThreadRestartPolicyTest {

    @Test
    void replacesThreadsWithinTheBudgetThenShutsDownUntilTheWindowHasPassed() {
        TestClock clock = new TestClock(FanoutFixture.START);
        ThreadRestartPolicy policy = new ThreadRestartPolicy(2, Duration.ofMinutes(10), clock);
        RuntimeException boom = new RuntimeException("boom");
        assertEquals(REPLACE_THREAD, policy.handle(boom));
        clock.advance(Duration.ofMinutes(1));
        assertEquals(REPLACE_THREAD, policy.handle(boom));
        assertEquals(SHUTDOWN_CLIENT, policy.handle(boom));
        clock.advance(Duration.ofMinutes(9).plusSeconds(1)); // the first restart left the window
        assertEquals(REPLACE_THREAD, policy.handle(boom));
    }
}
