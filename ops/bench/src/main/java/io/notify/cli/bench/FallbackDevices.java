package io.notify.cli.bench;

import io.notify.client.ClientEvent;
import io.notify.client.NotifyClient;
import io.notify.client.TransportMode;
import io.notify.devstack.Await;
import io.notify.platform.FallbackTopic;
import io.notify.platform.PlatformStack;
import io.notify.platform.ServiceProcess;
import io.notify.platform.StackOptions;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.schemas.publish.NotifyPublisher;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * {@code bench fallback}'s devices phase: do devices that received an event ever make its fallback
 * fire? A stack of its own (broker, Redis, fanout-streams, two gateways whose receipt batch is held 5 s,
 * so acks are in it when a gateway dies) and {@code devices} Java SDK clients, one user each, half on
 * WebSocket and half on SSE, all on the first gateway. Every device's user gets {@code perDevice}
 * events with a fallback; as many users with no device get as many (the control: their fallbacks must
 * fire, once each). Once every device has its events, the first gateway is killed with SIGKILL (the
 * acks in its batch die with it) and the clients resume on the second. Then notify.fallback is read
 * until the control's records are all there, and 2 s more. The goal: 0 fallbacks for received events.
 */
final class FallbackDevices {

    /**
     * @param receivedEvents     events the devices received (each once)
     * @param firedForReceived   fallback records of those events: the goal is 0
     * @param offlineEvents      the control's events
     * @param firedForOffline    their fallback records (each expected once)
     * @param duplicates         records beyond the first of one event
     * @param acksBeforeKill     ack frames the killed gateway had counted
     */
    record Result(int devices, int perDevice, String after, long receivedEvents, long firedForReceived, long offlineEvents,
                  long firedForOffline, long duplicates, double acksBeforeKill, double secondsToAllFallbacks) {
    }

    private FallbackDevices() {
    }

    static Result run(Path work, int devices, int perDevice, Fallback fallback, Duration deadline, Consumer<String> progress)
            throws Exception {
        StackOptions so = StackOptions.of(work, 1, 2)
                .withGatewaySettings(Map.of("notify.gateway.inbox.ack-flush-interval", "5s"))
                .withFanoutSettings(Map.of("notify.fanout.fallback.check-interval", "200ms"));
        try (PlatformStack stack = PlatformStack.start(so, progress)) {
            ServiceProcess doomed = stack.gateways().get(0);
            ServiceProcess survivor = stack.gateways().get(1);
            Set<String> received = ConcurrentHashMap.newKeySet();
            List<NotifyClient> clients = new ArrayList<>();
            try (NotifyPublisher publisher = NotifyPublisher.builder().bootstrapServers(stack.bootstrapServers())
                    .topics(stack.topics()).producer("bench-fallback").build()) {
                for (int i = 0; i < devices; i++) {
                    String user = "bfd-" + i;
                    clients.add(NotifyClient.builder()
                            .gateways(List.of(URI.create("ws://127.0.0.1:" + doomed.port()), URI.create("ws://127.0.0.1:" + survivor.port())))
                            .token(stack.keys().token(user))
                            .transport(i % 2 == 0 ? TransportMode.WEBSOCKET : TransportMode.SSE)
                            .sseFallback(false)
                            .device("bench-" + i)
                            .ackInterval(Duration.ofMillis(200))
                            .backoff(Duration.ofMillis(200), Duration.ofSeconds(2))
                            .listener((ClientEvent e) -> received.add(e.id()))
                            .connect());
                }
                await(deadline, "every device connected", () -> clients.stream().allMatch(c -> c.nodeId().isPresent()), progress);
                progress.accept(String.format("%,d devices connected (half WebSocket, half SSE); publishing %,d events with"
                        + " fallback after %s to them and as many to users with no device", devices, devices * perDevice, fallback.after()));
                Set<String> offline = new HashSet<>();
                List<CompletableFuture<?>> sent = new ArrayList<>();
                for (int i = 0; i < devices; i++) {
                    for (int k = 0; k < perDevice; k++) {
                        sent.add(publisher.publish(EventEnvelope.durable("bench.fallback", null, "bfd-" + i)
                                .withId("bfd-" + i + "-" + k).withFallback(fallback)));
                        String id = "bfo-" + i + "-" + k;
                        offline.add(id);
                        sent.add(publisher.publish(EventEnvelope.durable("bench.fallback", null, "bfo-" + i)
                                .withId(id).withFallback(fallback)));
                    }
                }
                CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(deadline.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                long published = System.nanoTime();
                long expected = (long) devices * perDevice;
                await(deadline, "every device's events received", () -> received.size() >= expected, progress);
                int webSocketDevices = (devices + 1) / 2;
                await(deadline, "the WebSocket devices' acks counted by their gateway",
                        () -> acks(doomed) >= webSocketDevices, progress); // cumulative acks: at least one frame per device
                double acks = acks(doomed);
                doomed.kill();
                progress.accept(String.format("killed %s (SIGKILL) with %.0f ack frames counted and its receipt batch unflushed;"
                        + " the devices resume on %s", stack.nodeId(0), acks, stack.nodeId(1)));
                Map<String, Integer> fired = fallbacks(stack, offline, fallback.delay().plus(deadline), progress);
                double seconds = (System.nanoTime() - published) / 1e9;
                long forReceived = fired.keySet().stream().filter(received::contains).count();
                long forOffline = fired.keySet().stream().filter(offline::contains).count();
                long duplicates = fired.values().stream().mapToLong(n -> n - 1).sum();
                return new Result(devices, perDevice, fallback.after(), received.size(), forReceived, offline.size(), forOffline,
                        duplicates, acks, seconds);
            } finally {
                clients.forEach(NotifyClient::close);
            }
        }
    }

    private static void await(Duration bound, String what, BooleanSupplier done, Consumer<String> progress) {
        Await.until("bench fallback: " + what, bound, done);
        progress.accept(what);
    }

    private static double acks(ServiceProcess gateway) {
        try {
            return PrometheusText.scrape(gateway).sum("notify_gateway_acks_total");
        } catch (Exception e) {
            return 0;
        }
    }

    /** Fallback records by event id, read until every {@code offline} event has one (and 2 s more) or {@code bound}. */
    private static Map<String, Integer> fallbacks(PlatformStack stack, Set<String> offline, Duration bound, Consumer<String> progress) {
        Map<String, Integer> fired = new HashMap<>();
        for (FallbackRecord r : FallbackTopic.readUntil(stack.bootstrapServers(), stack.topics(),
                read -> read.stream().map(x -> x.event().id()).collect(java.util.stream.Collectors.toSet()).containsAll(offline),
                Duration.ofSeconds(2), bound)) {
            fired.merge(r.event().id(), 1, Integer::sum);
        }
        progress.accept(String.format("read %,d fallback records", fired.values().stream().mapToInt(Integer::intValue).sum()));
        return fired;
    }
}
