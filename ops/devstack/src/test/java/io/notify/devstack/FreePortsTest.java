package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Arrays;
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
