package io.notify.e2e.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.FreePorts;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.platform.Platform;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's browser origins name the gateways' ports before anything starts, so a port picked free
 * can be bound by another process of the machine (a broker of a module built alongside) before its
 * gateway binds it, seconds later: a full build once failed so ({@code BindException} in
 * InboxPagesIT). The kit then starts again on other ports, and the origins name those.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(180)
class PickedPortsIT {

    @Test
    void aPickedPortTakenBeforeItsGatewayBindsItIsPickedAgain(Infra infra, @TempDir Path dir) throws Exception {
        try (ServerSocket someoneElse = new ServerSocket()) {
            someoneElse.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int taken = someoneElse.getLocalPort();
            AtomicInteger picks = new AtomicInteger();
            try (Platform stack = Platform.forTest(infra, dir).gateways("gw-a").browserOrigins()
                    .portPicker(count -> {
                        int[] ports = FreePorts.pick(count);
                        if (picks.getAndIncrement() == 0) {
                            ports[0] = taken; // free when picked, bound by someone else when the gateway binds it
                        }
                        return ports;
                    })
                    .start()) {
                int port = stack.gateway("gw-a").port();
                assertEquals(2, picks.get(), "one start on the taken port, one on fresh ones");
                assertNotEquals(taken, port);
                assertTrue(checkAllowsOrigin(port, "http://127.0.0.1:" + port), "the origins name the port bound");
                assertFalse(checkAllowsOrigin(port, "http://127.0.0.1:" + taken), "and not the one given up");
            }
        }
    }

    /** Whether the gateway's origin check passes for {@code origin} ({@code GET /v1/ws/check}: origin before token). */
    private static boolean checkAllowsOrigin(int port, String origin) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(Platform.http(port) + "/v1/ws/check?origin=" + origin)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return !r.body().contains("\"reason\":\"origin\"");
    }
}
