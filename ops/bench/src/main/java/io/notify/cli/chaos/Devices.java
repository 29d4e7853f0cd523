package io.notify.cli.chaos;

import io.notify.client.ClientEvent;
import io.notify.client.ConnectionState;
import io.notify.client.NotifyClient;
import io.notify.client.NotifyClientBuilder;
import io.notify.client.NotifyClientException;
import io.notify.client.NotifyListener;
import io.notify.client.RoomListener;
import io.notify.protocol.frame.ResetReason;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * The simulated devices of a chaos run: {@code users × devicesPerUser} real {@link NotifyClient}s
 * (the Java SDK, so duplicates and gaps are what an application would see), each given the gateway
 * list rotated by its index so they start spread over the nodes and move to the next node when one
 * fails. When the run has rooms, each device also subscribes to its room ({@link Audience})
 * through the SDK, which resumes it from its stored position on every reconnect. Every durable
 * event, of the user stream or the room, goes to the {@link Verifier}, and so does every seq the SDK
 * tells without its content ({@code onCollapsed}, {@code onMuted}, {@code onExpired}, {@code onRecalled}); every
 * delivery to {@link DeliveryPauses}.
 */
final class Devices implements AutoCloseable {

    /** Where one device stands: its node (from {@code welcome}) and when it last became CONNECTED. */
    private static final class State {
        volatile boolean connected;
        volatile String node;
        volatile long connectedAtNanos;
    }

    /** A snapshot taken at a fault: which devices were on the node, and when. */
    record FaultMark(List<Integer> devices, long atNanos) {
    }

    private final List<NotifyClient> clients = new ArrayList<>();
    private final State[] states;
    private final AtomicLong resets = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();

    Devices(List<String> gateways, Audience audience, IntFunction<String> tokenForUser, Verifier verifier,
            DeliveryPauses pauses) {
        this.states = new State[audience.devices()];
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        for (int d = 0; d < states.length; d++) {
            int device = d;
            State state = new State();
            states[d] = state;
            List<String> rotated = new ArrayList<>();
            for (int i = 0; i < gateways.size(); i++) {
                rotated.add(gateways.get((d + i) % gateways.size()));
            }
            String token = tokenForUser.apply(d / audience.devicesPerUser());
            NotifyClient[] self = new NotifyClient[1];
            NotifyClientBuilder builder = NotifyClient.builder();
            if (audience.rooms() > 0) {
                builder.subscribe(ChaosAgent.roomName(Audience.roomOf(d, audience.rooms())),
                        roomListener(device, verifier, pauses));
            }
            self[0] = builder
                    .gateways(rotated.toArray(String[]::new))
                    .token(token)
                    .httpClient(http)
                    .backoff(Duration.ofMillis(500), Duration.ofSeconds(5))
                    .listener(new NotifyListener() {
                        @Override
                        public void onEvent(ClientEvent e) {
                            delivered(device, "user", e, verifier, pauses);
                        }

                        @Override
                        public void onCollapsed(StreamId stream, long from, long to) {
                            verifier.collapsed(device, "user", from, to, "collapsed");
                        }

                        @Override
                        public void onMuted(StreamId stream, long from, long to) {
                            verifier.collapsed(device, "user", from, to, "muted");
                        }

                        @Override
                        public void onExpired(StreamId stream, long from, long to) {
                            verifier.collapsed(device, "user", from, to, "expired");
                        }

                        @Override
                        public void onRecalled(StreamId stream, long seq, Optional<String> id) {
                            verifier.recalled(device, "user", seq, id.orElse(null));
                        }

                        @Override
                        public void onState(ConnectionState s) {
                            if (s == ConnectionState.CONNECTED) {
                                state.node = self[0] == null ? null : self[0].nodeId().orElse(null);
                                state.connectedAtNanos = System.nanoTime();
                                state.connected = true;
                            } else {
                                state.connected = false;
                            }
                        }

                        @Override
                        public void onReset(StreamId stream, ResetReason reason, Optional<Position> head) {
                            resets.incrementAndGet();
                            verifier.reset(device, reason.toString(), head.map(Position::epoch).orElse(null),
                                    head.map(Position::seq).orElse(0L));
                        }

                        @Override
                        public void onError(NotifyClientException error) {
                            errors.incrementAndGet();
                        }
                    })
                    .build();
            clients.add(self[0]);
        }
        clients.forEach(NotifyClient::start);
    }

    /** What the device's room subscription tells the verifier: events, seqs without content, the head it joined at, resets. */
    private RoomListener roomListener(int device, Verifier verifier, DeliveryPauses pauses) {
        return new RoomListener() {
            @Override
            public void onEvent(ClientEvent e) {
                delivered(device, e.stream().value(), e, verifier, pauses);
            }

            @Override
            public void onSubscribed(StreamId stream, Optional<Position> head) {
                verifier.subscribed(device, stream.value(), head.map(Position::epoch).orElse(null),
                        head.map(Position::seq).orElse(0L));
            }

            @Override
            public void onCollapsed(StreamId stream, long from, long to) {
                verifier.collapsed(device, stream.value(), from, to, "collapsed");
            }

            @Override
            public void onExpired(StreamId stream, long from, long to) {
                verifier.collapsed(device, stream.value(), from, to, "expired");
            }

            @Override
            public void onRecalled(StreamId stream, long seq, Optional<String> id) {
                verifier.recalled(device, stream.value(), seq, id.orElse(null));
            }

            @Override
            public void onRefused(StreamId stream, String reason) {
                // The device will miss the room's events: they show up as lost, this says why.
                errors.incrementAndGet();
                System.err.println("device " + device + ": subscribe to " + stream + " refused: " + reason);
            }

            @Override
            public void onReset(StreamId stream, ResetReason reason, Optional<Position> head) {
                resets.incrementAndGet();
                verifier.reset(device, stream.value(), reason.toString(), head.map(Position::epoch).orElse(null),
                        head.map(Position::seq).orElse(0L));
            }
        };
    }

    /** A durable event reached the device's application callback (ephemeral ones are not judged). */
    private static void delivered(int device, String stream, ClientEvent e, Verifier verifier, DeliveryPauses pauses) {
        if (e.position().isEmpty()) {
            return;
        }
        Position p = e.position().get();
        long micros = -1;
        if (e.data().has("sentAtMs")) {
            micros = Math.max(0, (System.currentTimeMillis() - e.data().get("sentAtMs").asLong()) * 1000);
        }
        verifier.delivered(device, stream, e.id(), p.epoch(), p.seq(), micros,
                e.expiresAt().map(at -> at.toInstant().toEpochMilli()).orElse(-1L));
        pauses.delivered(System.nanoTime(), micros);
    }

    int size() {
        return states.length;
    }

    long connected() {
        long n = 0;
        for (State s : states) {
            n += s.connected ? 1 : 0;
        }
        return n;
    }

    /** Connected devices per node id. */
    Map<String, Integer> perNode() {
        Map<String, Integer> m = new TreeMap<>();
        for (State s : states) {
            if (s.connected && s.node != null) {
                m.merge(s.node, 1, Integer::sum);
            }
        }
        return m;
    }

    /** The devices on {@code node} now ({@code *}: all of them). */
    FaultMark mark(String node) {
        List<Integer> on = new ArrayList<>();
        for (int d = 0; d < states.length; d++) {
            if (node.equals("*") || node.equals(states[d].node)) {
                on.add(d);
            }
        }
        return new FaultMark(on, System.nanoTime());
    }

    /**
     * Nanoseconds from the mark until the last of its devices was connected again (to any node) after
     * it, or -1 while one is not yet.
     */
    long resumedAfter(FaultMark mark) {
        long last = mark.atNanos();
        for (int d : mark.devices()) {
            State s = states[d];
            if (!s.connected || s.connectedAtNanos - mark.atNanos() <= 0) {
                return -1;
            }
            last = Math.max(last, s.connectedAtNanos);
        }
        return last - mark.atNanos();
    }

    /** Where a device stands now, for diagnostics: its node and whether it is connected. */
    String describe(int device) {
        State s = states[device];
        return "device " + device + " on " + s.node + (s.connected ? "" : " (not connected)");
    }

    long resets() {
        return resets.get();
    }

    long errors() {
        return errors.get();
    }

    @Override
    public void close() {
        clients.forEach(NotifyClient::close);
    }
}
