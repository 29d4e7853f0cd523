package io.notify.examples.publisher;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventEnvelope;
import io.notify.schemas.publish.NotifyPublisher;
import io.notify.schemas.publish.PublishException;
import io.notify.schemas.publish.PublishResult;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A business service that publishes one durable event to a user with {@link NotifyPublisher}: a
 * Kafka producer (idempotent, {@code acks=all}) writing straight to {@code notify.events}, every
 * event validated against event-v1 first. The alternative, without Kafka on the service's side, is
 * a POST to ingest (examples/node-publisher). Run against {@code ops/notifyctl dev}:
 * {@code mvn -q -pl examples/java-publisher exec:java} (examples/java-publisher/README.md).
 */
public final class PublisherExample {

    /** How long to wait for Kafka's acknowledgement before giving up. */
    static final Duration ACK_TIMEOUT = Duration.ofSeconds(30);

    private PublisherExample() {
    }

    public static void main(String[] args) throws InterruptedException {
        PublisherSettings settings;
        try {
            settings = PublisherSettings.from(System.getenv(), args);
        } catch (IllegalArgumentException e) {
            System.err.println("java-publisher: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(run(settings, System.out, System.err));
    }

    /** Publishes the event and prints where it landed; 0 on success, 1 when Kafka did not take it. */
    public static int run(PublisherSettings settings, PrintStream out, PrintStream err) throws InterruptedException {
        try (NotifyPublisher publisher = NotifyPublisher.builder()
                .bootstrapServers(settings.bootstrapServers())
                .topicPrefix(settings.topicPrefix())
                .clientId("example-java-publisher")
                .build()) {
            ObjectNode data = NotifyJson.mapper().createObjectNode().put("text", settings.text());
            EventEnvelope event = EventEnvelope.durable("demo.hello", data, settings.user());
            try {
                // one event, so waiting is fine here; a service chains on the future instead
                PublishResult result = publisher.publish(event).get(ACK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                out.printf("published %s to user %s: %s partition %d offset %d%n",
                        result.id(), settings.user(), result.topic(), result.partition(), result.offset());
                return 0;
            } catch (ExecutionException e) {
                // PublishException says whether a retry of the same event (same id: Notify dedups it) can help
                String retry = e.getCause() instanceof PublishException p && p.isRetriable() ? " (retriable)" : "";
                err.println("java-publisher: not published" + retry + ": " + e.getCause().getMessage());
                return 1;
            } catch (TimeoutException e) {
                err.println("java-publisher: no acknowledgement from Kafka at " + settings.bootstrapServers()
                        + " within " + ACK_TIMEOUT.toSeconds() + " s; is ops/notifyctl dev running?");
                return 1;
            }
        }
    }
}
