package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void pickedPortCanBeBoundOnLoopback() throws Exception {
        int port = FreePorts.pick();
        assertTrue(port > 0 && port <= 65535, "port " + port);
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            assertEquals(port, socket.getLocalPort());
        }
    }

    @Test
    void aPortAnotherProcessClaimedIsNotHandedOutUntilThatProcessIsGone() throws Exception {
        // a number no pick draws (no port is above 65535), so no other process of a build claims it meanwhile
        int port = 100_000 + (int) (ProcessHandle.current().pid() % 100_000);
        Process other = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), FreePortsClaimHolder.class.getName(), Integer.toString(port))
                .redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("claimed", out.readLine());
            assertFalse(FreePorts.claim(port), "held by the other process");
        } finally {
            other.destroyForcibly(); // kill -9: the lock goes with the process
            assertTrue(other.waitFor(30, TimeUnit.SECONDS));
        }
        assertTrue(FreePorts.claim(port), "free once the other process is gone");
        assertFalse(FreePorts.claim(port), "claimed by this JVM now: not handed out twice");
    }

    @Test
    void portsOfOneCallAreDistinct() {
        int[] ports = FreePorts.pick(5);
        assertEquals(5, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
    }

    @Test
    void portsComeFromBelowTheEphemeralRangeWhereNoClientSocketLands() {
        int below = FreePorts.ephemeralStart();
        Assumptions.assumeTrue(below - FreePorts.LOWEST > 1000, "this machine's ephemeral range leaves no room below it");
        for (int port : FreePorts.pick(20)) {
            assertTrue(port >= FreePorts.LOWEST && port < below, "port " + port + " outside " + FreePorts.LOWEST + ".." + below);
        }
    }

    @Test
    void theEphemeralRangeIsReadFromTheKernelsFormat() {
        assertEquals(32768, FreePorts.ephemeralStart("32768\t60999\n"));
        assertEquals(1024, FreePorts.ephemeralStart(" 1024 65535"));
    }

    @Test
    void resolveKeepsConcretePortsAndReplacesZero() {
        assertEquals(9092, FreePorts.resolve(9092));
        assertTrue(FreePorts.resolve(0) > 0);
        assertThrows(IllegalArgumentException.class, () -> FreePorts.resolve(-1));
        assertThrows(IllegalArgumentException.class, () -> FreePorts.resolve(70000));
        assertThrows(IllegalArgumentException.class, () -> FreePorts.pick(0));
    }
}
