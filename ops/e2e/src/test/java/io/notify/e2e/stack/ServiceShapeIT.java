package io.notify.e2e.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.notify.common.service.NotifyService;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.platform.Platform;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ingest, fanout-streams and a gateway node share one shape (docs/architecture.md, "Services"): a
 * name, a start that returns once they serve, and a stop that releases their listeners and may be
 * called again.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(120)
class ServiceShapeIT {

    @Test
    void everyServiceStopsOnceWhateverItIsAskedAndItsListenersAreGone(Infra infra, @TempDir Path dir) throws Exception {
        try (Platform stack = Platform.forTest(infra, dir).gateways("gw-a").start()) {
            List<NotifyService> services = stack.services();
            assertEquals(List.of("ingest", "fanout-streams", "push", "gateway gw-a"), services.stream().map(NotifyService::name).toList());
            List<Integer> ports = List.of(stack.ingestPort(), stack.queryPort(), stack.pushManagementPort(), stack.gateway("gw-a").port());
            for (int port : ports) {
                connect(port); // serving
            }
            for (int i = services.size() - 1; i >= 0; i--) {
                services.get(i).stop();
                services.get(i).stop(); // again: nothing happens
            }
            for (int port : ports) {
                assertThrows(IOException.class, () -> connect(port), "port " + port + " still open");
            }
        } // and close() stops them a third time
    }

    private static void connect(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
        }
    }
}
