package io.notify.e2e.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.examples.cli.CliClientExample;
import io.notify.examples.cli.CliSettings;
import io.notify.examples.publisher.PublisherExample;
import io.notify.examples.publisher.PublisherSettings;
import io.notify.gateway.GatewayServer;
import io.notify.platform.Platform;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps the two Java examples working (issue 18): on a real stack (devstack Kafka and Redis,
 * ingest, fanout-streams, a gateway), examples/java-cli-client's {@code run} connects as a user,
 * examples/java-publisher's {@code run} publishes to that user through Kafka, and the client prints
 * exactly that event, stores its position in the file and stops after it. The same calls their
 * {@code main}s make, with the settings notifyctl dev's defaults give way to here (this stack's
 * ports, topic prefix and token).
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(120)
class ExamplesIT {

    static final Duration WAIT = Duration.ofSeconds(30);
    static Platform stack;
    static GatewayServer gateway;

    @BeforeAll
    static void start(Infra infra, @TempDir Path dir) throws Exception {
        stack = Platform.forTest(infra, dir).start();
        gateway = stack.startGateway("gw-ex");
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void theCliClientPrintsWhatThePublisherPublished(@TempDir Path dir) throws Exception {
        String user = "ex-" + Long.toString(System.nanoTime(), 36);
        Path positions = dir.resolve("positions.txt");
        CliSettings client = new CliSettings(List.of(Platform.http(gateway.port()).toString()), stack.token(user), null, positions, 1);
        Output printed = new Output();
        CompletableFuture<Void> clientRun = CompletableFuture.runAsync(() -> {
            try {
                CliClientExample.run(client, printed.stream);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Await.until(() -> "the CLI client connected; it printed:\n" + printed, WAIT, () -> printed.text().contains("state CONNECTED"));

        Output published = new Output();
        Output errors = new Output();
        PublisherSettings publisher = new PublisherSettings(stack.config().bootstrapServers(), stack.config().prefix(), user, "hi from ExamplesIT");
        assertEquals(0, PublisherExample.run(publisher, published.stream, errors.stream), "publisher failed: " + errors);
        Matcher id = Pattern.compile("published (\\S+) to user " + Pattern.quote(user) + ": ").matcher(published.text());
        assertTrue(id.find(), "the publisher's output: " + published);

        clientRun.get(WAIT.toSeconds(), TimeUnit.SECONDS); // it stops after its one event
        Matcher event = Pattern.compile("(?m)^event u:" + Pattern.quote(user) + " (\\S+):1 demo\\.hello "
                + Pattern.quote(id.group(1)) + " \\{\"text\":\"hi from ExamplesIT\"}$").matcher(printed.text());
        assertTrue(event.find(), "the CLI client's output lacks the published event " + id.group(1) + ":\n" + printed);
        String stored = Files.readString(positions);
        assertTrue(stored.lines().anyMatch(("u:" + user + "=" + event.group(1) + ":1")::equals), "the position file: " + stored);
    }

    /** What an example printed, readable while it runs. */
    private static final class Output {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        String text() {
            synchronized (stream) {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }

        @Override
        public String toString() {
            return text();
        }
    }
}
