package io.notify.examples.cli;

import io.notify.client.ClientEvent;
import io.notify.client.ConnectionState;
import io.notify.client.NotifyClient;
import io.notify.client.NotifyClientException;
import io.notify.client.NotifyListener;
import io.notify.client.store.FilePositionStore;
import io.notify.protocol.frame.ResetReason;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.io.PrintStream;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A command-line client on the Java SDK: connects to the gateways, prints every event, connection
 * state, reset and error as one line, keeps its positions in a file (a restart resumes where it
 * stopped, nothing twice) and reconnects by itself. Runs until Ctrl-C, or until it has printed
 * the number of events given as its argument. Against {@code ops/notifyctl dev}:
 * {@code NOTIFY_TOKEN=$(ops/notifyctl token --user 42) mvn -q -pl examples/java-cli-client exec:java}
 * (examples/java-cli-client/README.md). gateway/client/README.md shows {@link #connect} as its
 * five-minute example; ReadmeExampleTest keeps the two identical.
 */
public final class CliClientExample {

    private CliClientExample() {
    }

    public static void main(String[] args) throws InterruptedException {
        CliSettings settings;
        try {
            settings = CliSettings.from(System.getenv(), args);
        } catch (IllegalArgumentException e) {
            System.err.println("java-cli-client: " + e.getMessage());
            System.exit(2);
            return;
        }
        run(settings, System.out);
    }

    /** Connects, prints until {@code settings.maxEvents()} events arrived (or forever, for 0), then closes. */
    public static void run(CliSettings settings, PrintStream out) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        AtomicLong events = new AtomicLong();
        NotifyClient client = connect(settings, out, () -> {
            if (events.incrementAndGet() == settings.maxEvents()) {
                done.countDown();
            }
        });
        Thread closer = new Thread(() -> {
            client.close(); // Ctrl-C: acks flushed, WebSocket closed with 1000
            done.countDown();
        }, "java-cli-client-stop");
        Runtime.getRuntime().addShutdownHook(closer);
        done.await();
        try {
            Runtime.getRuntime().removeShutdownHook(closer);
        } catch (IllegalStateException shuttingDown) {
            return; // the hook is closing the client already
        }
        client.close();
    }

    // README example: start (gateway/client/README.md shows the lines between the two markers)
    static NotifyClient connect(CliSettings settings, PrintStream out, Runnable afterEvent) {
        return NotifyClient.builder()
                .gateways(settings.gateways().toArray(String[]::new))  // tried in turn
                .token(refresh -> settings.currentToken())             // before every connect; refresh after 401/4001
                .positionStore(new FilePositionStore(settings.positions()))
                .listener(new NotifyListener() {                       // all on the client's one event thread
                    @Override
                    public void onEvent(ClientEvent e) {               // durable: once, in order; position saved after return
                        out.printf("event %s %s %s %s %s%n", e.stream(), e.position().map(Position::format).orElse("-"),
                                e.type(), e.id(), e.data());
                        afterEvent.run();
                    }

                    @Override
                    public void onReset(StreamId stream, ResetReason reason, Optional<Position> head) {
                        out.printf("reset %s %s head=%s%n", stream, reason.wireName(), head.map(Position::format).orElse("-"));
                    }

                    @Override
                    public void onState(ConnectionState state) {
                        out.println("state " + state);
                    }

                    @Override
                    public void onError(NotifyClientException e) {     // terminal: stopped until reconnect()
                        out.println("error " + e.kind() + (e.terminal() ? " (terminal) " : " ") + e.getMessage());
                    }
                })
                .connect();                                            // build() + start(); returns at once
    }
    // README example: end
}
