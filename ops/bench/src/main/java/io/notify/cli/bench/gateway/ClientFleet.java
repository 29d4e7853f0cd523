package io.notify.cli.bench.gateway;

import io.notify.cli.bench.LatencySummary;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Public entry point to the {@link LoadAgent} fleet for benchmarks outside this package: users
 * {@code 0..users-1} (user i is {@link #user(int)}) split into contiguous ranges, one per gateway
 * node, each range held by load-agent JVMs of at most {@code perAgent} clients, one WebSocket
 * device per user, over several 127.0.0.x source addresses. Counts and latency histograms of all
 * agents are merged exactly. Every wait is bounded; agents exit by themselves after their lifetime.
 */
public final class ClientFleet implements AutoCloseable {

    /**
     * Events received by all clients since the last {@link #reset} (or {@link #track}), first/last
     * arrival, end-to-end latency, connections a gateway ended meanwhile and how many of those the
     * agents reconnected.
     */
    public record Delivered(long events, long firstMs, long lastMs, LatencySummary latencyMs, long closed, long reconnects) {
    }

    /** Bound of each agent's reply to a command. */
    private static final Duration REPLY_BOUND = Duration.ofSeconds(30);

    private final AgentFleet agents;
    private final int users;

    private ClientFleet(AgentFleet agents, int users) {
        this.agents = agents;
        this.users = users;
    }

    /** The user name of client {@code index}, the one its events must be addressed to. */
    public static String user(int index) {
        return BenchUsers.user(index);
    }

    /** The gateway (index into the ports) that holds user {@code index} when {@code users} are split over {@code gateways}. */
    public static int gatewayOf(int index, int users, int gateways) {
        return (int) ((long) index * gateways / users);
    }

    /** Starts the agents (ws clients, no stored positions) and waits until each has minted its tokens. */
    public static ClientFleet start(List<Integer> gatewayPorts, Path work, int users, FleetOptions options, Duration lifetime,
                                    String heap) throws IOException, InterruptedException {
        List<AgentFleet.Placement> placements = new ArrayList<>();
        int first = 0;
        for (int g = 0; g < gatewayPorts.size(); g++) {
            int end = first;
            while (end < users && gatewayOf(end, users, gatewayPorts.size()) == g) {
                end++;
            }
            for (AgentFleet.Slice s : AgentFleet.split(end - first, options.perAgent)) {
                if (s.count() > 0) {
                    placements.add(new AgentFleet.Placement(gatewayPorts.get(g), new AgentFleet.Slice(first + s.first(), s.count())));
                }
            }
            first = end;
        }
        return new ClientFleet(AgentFleet.start("127.0.0.1", placements, "ws", work, sourceAddresses(options), null, lifetime,
                heap, "clients-"), users);
    }

    /** Source addresses the clients use. */
    public static List<String> sourceAddresses(FleetOptions options) {
        return AgentFleet.sourceAddresses(options.sourceAddresses);
    }

    /** The results folder of the fleet options. */
    public static Path out(FleetOptions options) {
        return options.results.out();
    }

    /** Valid agent split and address range. */
    public static boolean valid(FleetOptions options) {
        return options.valid();
    }

    public static String gatewayHeap(FleetOptions options) {
        return options.gatewayHeap;
    }

    public int agents() {
        return agents.size();
    }

    /** The agent JVMs' process ids (their CPU is read from /proc). */
    public List<Long> pids() {
        return agents.pids();
    }

    /** Connects every client at {@code rate}/s in total; returns how many are connected. */
    public int open(double rate, Duration bound) throws IOException, InterruptedException {
        return BenchMath.ramp(agents.open(users, rate, 500, bound)).established();
    }

    /** Open connections and events received, as of the agents' latest progress lines (about once a second). */
    public long[] progress() {
        AgentProcess.Progress p = agents.progress();
        return new long[] {p.open(), p.events()};
    }

    /** Zeroes every agent's counts and latency histogram. */
    public void reset() throws IOException, InterruptedException {
        agents.ask("reset", "reset", REPLY_BOUND);
    }

    /**
     * Zeroes every agent's counts, then counts only the first delivery to the app of each event of
     * {@code run} (numbered by the generator, event n to user {@code n % users}), by id.
     */
    public void track(String run, int users) throws IOException, InterruptedException {
        agents.ask("track " + run + " " + users, "tracking", REPLY_BOUND);
    }

    /** Whether the agents reconnect (with position and backoff, as the SDK does) clients that a gateway closes outside a phase. */
    public void hold(boolean on) throws IOException, InterruptedException {
        agents.hold(on);
    }

    /**
     * Whether every client acks the durable events of its user stream as the SDKs do: cumulative,
     * its position, at most one ack frame per {@code interval} ({@link AckPacer}); off drops the
     * acks still waiting.
     */
    public void acks(boolean on, Duration interval) throws IOException, InterruptedException {
        agents.ask("acks " + (on ? "on " + Math.max(1, interval.toMillis()) : "off"), "acks", REPLY_BOUND);
    }

    /** The tracked run's by-id check, over all clients, against the generator's accepted numbers ({@code BitSet} file). */
    public IdCheck checkIds(Path acceptedFile) throws IOException, InterruptedException {
        IdCheck sum = IdCheck.NONE;
        for (IdCheck c : agents.ask("check-ids " + acceptedFile + " " + users, "checked", IdCheck.class, REPLY_BOUND)) {
            sum = sum.plus(c);
        }
        return sum;
    }

    /** Merged counts and latencies since the last {@link #reset}. */
    public Delivered delivered() throws IOException, InterruptedException {
        long events = 0;
        long closed = 0;
        long reconnects = 0;
        long first = Long.MAX_VALUE;
        long last = 0;
        for (LoadAgent.Counts c : agents.counts()) {
            events += c.events();
            closed += c.droppedOutsidePhases();
            reconnects += c.reconnects();
            if (c.firstMs() > 0) {
                first = Math.min(first, c.firstMs());
            }
            last = Math.max(last, c.lastMs());
        }
        return new Delivered(events, first == Long.MAX_VALUE ? 0 : first, last, agents.latency(), closed, reconnects);
    }

    @Override
    public void close() {
        agents.close();
    }
}
