package io.notify.cli.bench.gateway;

import io.notify.protocol.stream.StreamId;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Subscription churn for {@code bench rooms}: extra WebSocket clients (java.net.http, apart from the
 * load agents) that subscribe to and unsubscribe from one stream in turn, {@code rate} frames per
 * second in all, spread over the clients so each stays under the gateway's inbound rate (10/s). They
 * answer pings, count the gateway's answers ({@code subscribed}/{@code unsubscribed},
 * {@code subscribe_refused}) and their failed sends; their events are not checked: the steady
 * subscribers are.
 */
final class Churn implements AutoCloseable {

    private final List<Client> clients = new ArrayList<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-churn");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private long startNanos;

    /** What the churn did: frames sent (and per second over the churn's span), answers, refusals, failed sends. */
    record Tally(long sent, double sentPerSecond, long answered, long refused, long failed) {
    }

    private final class Client implements WebSocket.Listener {
        WebSocket socket;
        CompletableFuture<?> last = CompletableFuture.completedFuture(null);
        boolean subscribed;

        /** Sends are chained: java.net.http allows one outstanding send per socket. */
        synchronized void send(String text) {
            last = last.thenCompose(x -> socket.sendText(text, true)).exceptionally(e -> {
                failed.incrementAndGet();
                return null;
            });
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean lastPart) {
            String text = data.toString();
            if (text.startsWith("{\"t\":\"ping\"")) {
                send("{\"t\":\"pong\"}");
            } else if (text.startsWith("{\"t\":\"subscribed\"") || text.startsWith("{\"t\":\"unsubscribed\"")) {
                answered.incrementAndGet();
            } else if (text.startsWith("{\"t\":\"subscribe_refused\"")) {
                refused.incrementAndGet();
            }
            webSocket.request(1);
            return null;
        }
    }

    private Churn() {
    }

    static Churn start(GatewayStack stack, StreamId stream, int count, double rate) throws Exception {
        Churn churn = new Churn();
        HttpClient http = HttpClient.newHttpClient();
        List<Integer> ports = stack.gatewayPorts();
        for (int i = 0; i < count; i++) {
            Client c = churn.new Client();
            c.socket = http.newWebSocketBuilder().subprotocols("notify.v1").header("Authorization", "Bearer " + stack.token("churn-" + i))
                    .connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create("ws://127.0.0.1:" + ports.get(i % ports.size()) + "/v1/ws"), c)
                    .get(15, TimeUnit.SECONDS);
            c.send("{\"t\":\"resume\",\"streams\":[]}");
            churn.clients.add(c);
        }
        String subscribe = "{\"t\":\"subscribe\",\"stream\":\"" + stream.value() + "\"}";
        String unsubscribe = "{\"t\":\"unsubscribe\",\"stream\":\"" + stream.value() + "\"}";
        long periodMicros = Math.max(1, (long) (1_000_000 / rate));
        long[] next = {0};
        churn.startNanos = System.nanoTime();
        churn.ticker.scheduleAtFixedRate(() -> {
            Client c = churn.clients.get((int) (next[0]++ % churn.clients.size()));
            c.send(c.subscribed ? unsubscribe : subscribe);
            c.subscribed = !c.subscribed;
            churn.sent.incrementAndGet();
        }, 1, periodMicros, TimeUnit.MICROSECONDS);
        return churn;
    }

    /** Stops the churn; what it did so far (answers to the last frames may still be on their way). */
    Tally stop() {
        ticker.shutdownNow();
        double seconds = Math.max(1e-9, (System.nanoTime() - startNanos) / 1e9);
        return new Tally(sent.get(), sent.get() / seconds, answered.get(), refused.get(), failed.get());
    }

    @Override
    public void close() {
        stop();
        for (Client c : clients) {
            c.socket.abort();
        }
    }
}
