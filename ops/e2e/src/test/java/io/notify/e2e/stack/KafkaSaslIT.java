package io.notify.e2e.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.BrokerOptions;
import io.notify.devstack.FreePorts;
import io.notify.devstack.Infra;
import io.notify.devstack.KafkaBrokerProcess;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.GatewayServer;
import io.notify.gateway.support.WsClient;
import io.notify.platform.Platform;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.WelcomeFrame;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every service reaches Kafka through a SASL/PLAIN listener when told to with {@code
 * notify.kafka.client.*}: a broker of this test's own whose only listener for clients requires
 * SASL, and an event that crosses ingest, fanout-streams and a gateway to a WebSocket client.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(240)
class KafkaSaslIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"notify\" password=\"notify-secret\";";

    @Test
    void everyServiceWorksOverASaslListenerAndAClientWithoutCredentialsIsRefused(Infra infra, @TempDir Path dir)
            throws Exception {
        int[] ports = FreePorts.pick(3); // plaintext (inter-broker, readiness), controller, SASL for the services
        String sasl = "127.0.0.1:" + ports[2];
        BrokerOptions options = BrokerOptions.defaults().withPort(ports[0]).withControllerPort(ports[1])
                .withProperty("listeners", "PLAINTEXT://127.0.0.1:" + ports[0] + ",CONTROLLER://127.0.0.1:" + ports[1]
                        + ",SASL_PLAINTEXT://" + sasl)
                .withProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + ports[0] + ",SASL_PLAINTEXT://" + sasl)
                .withProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT")
                .withProperty("sasl.enabled.mechanisms", "PLAIN")
                .withProperty("listener.name.sasl_plaintext.plain.sasl.jaas.config",
                        "org.apache.kafka.common.security.plain.PlainLoginModule required user_notify=\"notify-secret\";");
        try (KafkaBrokerProcess broker = new KafkaBrokerProcess(options, KafkaBrokerProcess.DEFAULT_JVM_OPTIONS,
                System.getProperty("java.class.path")).start()) {
            assertThrows(ExecutionException.class, () -> describeWithout(sasl), "the SASL listener refuses a plain client");

            try (Platform platform = Platform.forTest(sasl, infra.redisUri(), infra.prefix(), dir)
                    .kafkaClient("security.protocol", "SASL_PLAINTEXT")
                    .kafkaClient("sasl.mechanism", "PLAIN")
                    .kafkaClient("sasl.jaas.config", JAAS)
                    .gateways("gw-sasl")
                    .start()) {
                GatewayServer gateway = platform.gateway("gw-sasl");
                try (WsClient client = WsClient.connect(Platform.ws(gateway.port()), platform.token("sasl-user"))) {
                    assertTrue(client.next(WAIT) instanceof WelcomeFrame);
                    client.resumeLive();
                    platform.publish("sasl-user", "over-sasl-1"); // ingest's producer → fanout-streams → the node topic
                    List<EventFrame> got = client.events(1, WAIT);
                    assertEquals("over-sasl-1", got.get(0).id());
                }
            }
        }
    }

    /** An admin client without SASL settings asks the SASL listener for the cluster id. */
    private static String describeWithout(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3_000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 1_000))) {
            return admin.describeCluster().clusterId().get(10, TimeUnit.SECONDS);
        }
    }
}
