package io.notify.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.config.Settings;
import io.notify.devstack.KafkaBrokerProcess;
import io.notify.schemas.topic.TopicCatalog;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With the broker stopped, ingest answers 503 + Retry-After and never 202; when the broker is back
 * it accepts again. Uses a broker of its own (a child process) so stopping it disturbs no other test.
 */
@Timeout(240)
class IngestKafkaOutageIT {

    @Test
    void brokerDownMeans503AndNever202() throws Exception {
        String prefix = "outage-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        try (KafkaBrokerProcess broker = new KafkaBrokerProcess().start()) {
            String topic = TopicCatalog.of(prefix).events().name();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            try (IngestServer server = new IngestServer(IngestConfig.load(Settings.of(Map.of(
                    "notify.ingest.port", "0",
                    "notify.ingest.host", "127.0.0.1",
                    "notify.kafka.bootstrap-servers", broker.bootstrapServers(),
                    "notify.topic-prefix", prefix,
                    "notify.ingest.api-keys", "orders:it-orders-key-0123456789",
                    "notify.ingest.produce-timeout", "3s",
                    "notify.ingest.max-block", "1s",
                    "notify.ingest.readiness-interval", "500ms",
                    "notify.ingest.io-threads", "1",
                    "notify.ingest.worker-threads", "4"))))) {
                server.start();
                IngestClient client = new IngestClient(server.port(), OpenApiContract.fromRepository());
                assertEquals(202, post(client).statusCode());

                broker.stop();
                // Right after the stop, before readiness has noticed: the write cannot be acknowledged.
                List<HttpResponse<String>> answers = new ArrayList<>();
                answers.add(post(client));
                awaitStatus(client, 503);
                for (int i = 0; i < 5; i++) {
                    answers.add(post(client));
                }
                for (HttpResponse<String> r : answers) {
                    assertEquals(503, r.statusCode(), r.body());
                    assertTrue(r.headers().firstValue("Retry-After").isPresent());
                }

                broker.restart();
                awaitStatus(client, 200);
                assertEquals(202, post(client).statusCode());
            }
        }
    }

    private static HttpResponse<String> post(IngestClient client) {
        String id = "ev-" + UUID.randomUUID();
        return client.post(IngestApiIT.KEY, "application/json", IngestApiIT.event(id, "1"));
    }

    private static void awaitStatus(IngestClient client, int status) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        int last = -1;
        while (System.nanoTime() < deadline) {
            last = client.get("/readyz").statusCode();
            if (last == status) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(100); // poll interval of a condition wait, bounded by the deadline
        }
        throw new AssertionError("/readyz stayed " + last + ", expected " + status);
    }
}
