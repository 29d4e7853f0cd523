package io.notify.client.reconnect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.frame.CloseCode;
import java.time.Duration;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReconnectPolicyTest {

    private static final Duration PROMPTLY = Duration.ofSeconds(1);

    private Backoff backoff;
    private ReconnectPolicy policy;

    @BeforeEach
    void setUp() {
        backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60), new SplittableRandom(5));
        policy = new ReconnectPolicy(backoff, PROMPTLY, Duration.ofMinutes(5));
    }

    private ReconnectPlan closed(int code) {
        return policy.decide(new Disconnect.Closed(code, ""), true);
    }

    @ParameterizedTest
    @ValueSource(ints = {1000, 1002, 1003, 1007, 1008, 1009, 4003})
    void terminalCloseCodesStop(int code) {
        assertEquals(CloseCode.Reconnect.NEVER, CloseCode.policyFor(code));
        assertTrue(closed(code).stop());
    }

    @ParameterizedTest
    @ValueSource(ints = {1001, 4001, 4008})
    void drainTokenExpiryAndSlowConsumerReconnectPromptlyWithoutGrowingTheBackoff(int code) {
        backoff.nextDelay();
        backoff.nextDelay();
        for (int i = 0; i < 200; i++) {
            ReconnectPlan plan = closed(code);
            assertFalse(plan.stop());
            assertTrue(plan.delay().compareTo(PROMPTLY) <= 0, code + " waited " + plan.delay());
            assertEquals(code == 4001, plan.refreshToken(), "a fresh token only after 4001");
        }
        assertEquals(2, backoff.attempt());
    }

    @ParameterizedTest
    @ValueSource(ints = {1006, 1011, 1013, 4009, 4029, 4999})
    void otherCodesAndDropsBackOff(int code) {
        ReconnectPlan first = closed(code);
        assertFalse(first.stop());
        assertEquals(1, backoff.attempt());
        assertTrue(first.delay().toMillis() <= 1_000);
        closed(code);
        closed(code);
        assertEquals(3, backoff.attempt());
        assertEquals(Duration.ofSeconds(8), backoff.ceiling());
    }

    @Test
    void handshakeRefusals() {
        ReconnectPlan unauthorized = policy.decide(new Disconnect.Refused(401, Optional.empty(), true, ""), true);
        assertTrue(unauthorized.refreshToken());
        assertFalse(unauthorized.switchToSse(), "a bad token is not a WebSocket problem");
        assertTrue(policy.decide(new Disconnect.Refused(403, Optional.empty(), true, ""), true).stop());

        ReconnectPlan draining = policy.decide(new Disconnect.Refused(503, Optional.of(Duration.ofSeconds(7)), true, ""), true);
        assertEquals(Duration.ofSeconds(7), draining.delay(), "Retry-After above the backoff delay wins");
        assertFalse(draining.switchToSse());
        ReconnectPlan absurd = policy.decide(new Disconnect.Refused(429, Optional.of(Duration.ofDays(2)), true, ""), true);
        assertEquals(Duration.ofMinutes(5), absurd.delay(), "Retry-After is bounded");
        assertFalse(policy.decide(new Disconnect.Refused(502, Optional.empty(), true, ""), true).switchToSse());
    }

    @ParameterizedTest
    @ValueSource(ints = {101, 200, 400, 404, 426})
    void aWebSocketHandshakeAProxyCannotUpgradeFallsBackToSse(int status) {
        ReconnectPlan plan = policy.decide(new Disconnect.Refused(status, Optional.empty(), true, ""), true);
        assertTrue(plan.switchToSse());
        assertTrue(plan.delay().compareTo(PROMPTLY) <= 0);
        ReconnectPlan noFallback = policy.decide(new Disconnect.Refused(status, Optional.empty(), true, ""), false);
        assertFalse(noFallback.switchToSse());
        assertFalse(noFallback.stop());
    }

    @Test
    void sseRefusals() {
        assertTrue(policy.decide(new Disconnect.Refused(404, Optional.empty(), false, ""), false).stop());
        assertTrue(policy.decide(new Disconnect.Refused(400, Optional.empty(), false, ""), false).stop());
        assertFalse(policy.decide(new Disconnect.Refused(503, Optional.empty(), false, ""), false).stop());
        assertTrue(policy.decide(new Disconnect.Refused(401, Optional.empty(), false, ""), false).refreshToken());
    }

    @Test
    void anSseDrainIsRetriedAfterTheServersRetryHintAndOtherEndsBackOff() {
        ReconnectPlan drain = policy.decide(new Disconnect.StreamEnded(Optional.of(Duration.ofMillis(345))), false);
        assertEquals(Duration.ofMillis(345), drain.delay());
        assertEquals(0, backoff.attempt());
        policy.decide(new Disconnect.StreamEnded(Optional.empty()), false);
        assertEquals(1, backoff.attempt());
    }

    @Test
    void everythingElseBacksOffExceptAResyncWhichIsPrompt() {
        policy.decide(new Disconnect.Unreachable("refused"), true);
        policy.decide(new Disconnect.Silent(Duration.ofSeconds(55)), true);
        policy.decide(new Disconnect.BadFrame("x"), true);
        policy.decide(new Disconnect.TokenFailed("x"), true);
        assertEquals(4, backoff.attempt());
        ReconnectPlan resync = policy.decide(new Disconnect.Resync("gap"), true);
        assertTrue(resync.delay().compareTo(PROMPTLY) <= 0);
        assertEquals(4, backoff.attempt());
    }
}
