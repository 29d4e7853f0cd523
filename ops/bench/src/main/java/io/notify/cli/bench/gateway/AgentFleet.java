package io.notify.cli.bench.gateway;

import io.notify.cli.bench.LatencySummary;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Several {@link LoadAgent} processes, each holding a contiguous slice of the clients, so that no
 * process comes near the 20,000 open files limit: commands go to all, replies are gathered. Clients
 * spread over {@code 127.0.0.2 .. 127.0.0.(1+n)} source addresses (by client index), so no
 * (source, destination) pair runs out of its ~28k ephemeral ports.
 */
final class AgentFleet implements AutoCloseable {

    /** Clients {@code first .. first+count-1}. */
    record Slice(int first, int count) {
    }

    private final List<Slice> slices;
    private final List<AgentProcess> agents = new ArrayList<>();

    private AgentFleet(List<Slice> slices) {
        this.slices = slices;
    }

    /** Splits {@code total} clients into slices of at most {@code perAgent}, as even as possible. */
    static List<Slice> split(int total, int perAgent) {
        return split(total, perAgent, 1);
    }

    /**
     * As {@link #split(int, int)}, into a multiple of {@code nodes} slices (at least one per node):
     * slice i connects to node i % nodes, so every node gets the same share.
     */
    static List<Slice> split(int total, int perAgent, int nodes) {
        int n = Math.max(1, (total + perAgent - 1) / perAgent);
        n = (n + nodes - 1) / nodes * nodes;
        List<Slice> out = new ArrayList<>();
        int first = 0;
        for (int i = 0; i < n; i++) {
            int count = total / n + (i < total % n ? 1 : 0);
            out.add(new Slice(first, count));
            first += count;
        }
        return out;
    }

    /** How many of each slice's first clients make {@code wanted} overall, proportionally. */
    static int[] shares(int wanted, List<Slice> slices) {
        int total = slices.stream().mapToInt(Slice::count).sum();
        int[] out = new int[slices.size()];
        int given = 0;
        for (int i = 0; i < out.length; i++) {
            out[i] = i == out.length - 1 ? wanted - given : (int) ((long) wanted * slices.get(i).count() / total);
            out[i] = Math.max(0, Math.min(out[i], slices.get(i).count()));
            given += out[i];
        }
        return out;
    }

    static List<String> sourceAddresses(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add("127.0." + ((2 + i) / 256) + "." + ((2 + i) % 256));
        }
        return out;
    }

    /** One agent's place: clients {@code slice}, each attempt to one of the gateway nodes at {@code ports} at random. */
    record Placement(List<Integer> ports, Slice slice) {

        Placement(int port, Slice slice) {
            this(List.of(port), slice);
        }

        Placement {
            ports = List.copyOf(ports);
        }
    }

    /**
     * Starts the agents and waits until each has minted its tokens.
     *
     * @param ports     the gateway nodes' ports: agent i connects to {@code ports[i % n]}
     * @param positions file of "index epoch seq" lines, or null for clients without positions
     */
    static AgentFleet start(String host, int port, String transport, Path work, int clients, int perAgent,
                            List<String> sources, Path positions, Duration lifetime, String heap) throws IOException, InterruptedException {
        return start(host, List.of(port), transport, work, clients, perAgent, sources, positions, lifetime, heap);
    }

    static AgentFleet start(String host, List<Integer> ports, String transport, Path work, int clients, int perAgent,
                            List<String> sources, Path positions, Duration lifetime, String heap) throws IOException, InterruptedException {
        List<Slice> slices = split(clients, perAgent, ports.size());
        List<Placement> placements = new ArrayList<>();
        for (int i = 0; i < slices.size(); i++) {
            placements.add(new Placement(ports.get(i % ports.size()), slices.get(i)));
        }
        return start(host, placements, transport, work, sources, positions, lifetime, heap, "agent-");
    }

    /**
     * As {@link #start(String, List, String, Path, int, int, List, Path, Duration, String)}, but behind
     * a load balancer: every client's every attempt goes to one of {@code ports} at random
     * ({@link #targets} changes the set later).
     */
    static AgentFleet startBalanced(String host, List<Integer> ports, String transport, Path work, int clients, int perAgent,
                                    List<String> sources, Duration lifetime, String heap) throws IOException, InterruptedException {
        List<Placement> placements = split(clients, perAgent).stream().map(s -> new Placement(ports, s)).toList();
        return start(host, placements, transport, work, sources, null, lifetime, heap, "agent-");
    }

    /** Starts one agent per placement, logging to {@code work/<logPrefix><i>.log}, and waits until each has minted its tokens. */
    static AgentFleet start(String host, List<Placement> placements, String transport, Path work, List<String> sources,
                            Path positions, Duration lifetime, String heap, String logPrefix) throws IOException, InterruptedException {
        AgentFleet fleet = new AgentFleet(placements.stream().map(Placement::slice).toList());
        try {
            for (int i = 0; i < placements.size(); i++) {
                fleet.agents.add(launch(host, placements.get(i), transport, work, sources, positions, lifetime, heap,
                        work.resolve(logPrefix + i + ".log")));
            }
            for (AgentProcess a : fleet.agents) {
                a.await("ready", Duration.ofSeconds(120));
            }
            return fleet;
        } catch (IOException | InterruptedException | RuntimeException e) {
            fleet.close();
            throw e;
        }
    }

    /** One load-agent JVM holding clients {@code at.slice()} of the gateway at {@code host:at.port()}. */
    private static AgentProcess launch(String host, Placement at, String transport, Path work, List<String> sources,
                                       Path positions, Duration lifetime, String heap, Path log) throws IOException {
        return AgentProcess.start(List.of("-Xmx" + heap, "-XX:+UseParallelGC", "-Xss512k"),
                List.of(host, at.ports().stream().map(String::valueOf).collect(Collectors.joining(",")), transport, work.toString(), Integer.toString(at.slice().first()),
                        Integer.toString(at.slice().count()), String.join(",", sources),
                        positions == null ? "-" : positions.toString(), Long.toString(lifetime.toSeconds())), log);
    }

    int size() {
        return agents.size();
    }

    /** The agents' process ids. */
    List<Long> pids() {
        return agents.stream().map(AgentProcess::pid).toList();
    }

    List<Slice> slices() {
        return slices;
    }

    /** Connects the first {@code wanted} clients overall (those not connected yet) at {@code rate}/s in total. */
    List<PhaseReport> open(int wanted, double rate, int maxPendingPerAgent, Duration bound) throws IOException, InterruptedException {
        int[] share = shares(wanted, slices);
        for (int i = 0; i < agents.size(); i++) {
            double r = wanted == 0 ? rate : rate * share[i] / wanted;
            agents.get(i).send("open " + share[i] + " " + r + " " + maxPendingPerAgent + " " + bound.toMillis());
        }
        return gather("opened", bound.plusSeconds(30));
    }

    /** Every client reconnects at {@code t0EpochMs} plus a random delay below {@code jitter}, resuming its position. */
    List<PhaseReport> storm(long t0EpochMs, Duration jitter, int replay, Duration bound) throws IOException, InterruptedException {
        for (AgentProcess a : agents) {
            a.send("storm " + t0EpochMs + " " + jitter.toMillis() + " " + replay + " " + bound.toMillis());
        }
        return gather("storm", bound.plusMillis(Math.max(0, t0EpochMs - System.currentTimeMillis())).plusSeconds(30));
    }

    /** From now on every agent's new attempts go to one of the nodes at {@code ports}, at random. */
    void targets(List<Integer> ports) throws IOException, InterruptedException {
        ask("targets " + ports.stream().map(String::valueOf).collect(Collectors.joining(",")), "targets", Duration.ofSeconds(30));
    }

    /** Every agent reconnects (with its position, after the SDK's backoff) any client a gateway closes outside a phase. */
    void hold(boolean on) throws IOException, InterruptedException {
        ask("hold " + (on ? "on" : "off"), "hold", Duration.ofSeconds(30));
    }

    /** Closes every connection; returns how many were open. */
    long closeAll() throws IOException, InterruptedException {
        return ask("close", "closed", Duration.ofSeconds(60)).stream().mapToLong(Long::parseLong).sum();
    }

    List<LoadAgent.Counts> counts() throws IOException, InterruptedException {
        return ask("counts", "counts", LoadAgent.Counts.class, Duration.ofSeconds(30));
    }

    /** Per-client check after publishing {@code published} events, event n to client n % modulus. */
    List<LoadAgent.Verified> verify(long published, int modulus) throws IOException, InterruptedException {
        return ask("verify " + published + " " + modulus, "verified", LoadAgent.Verified.class, Duration.ofSeconds(30));
    }

    /** Every agent's event latency histogram (since its last reset), merged. */
    LatencySummary latency() throws IOException, InterruptedException {
        org.HdrHistogram.Histogram merged = LatencySummary.newHistogram();
        List<String> histograms = ask("histogram", "histogram", Duration.ofSeconds(30));
        for (int i = 0; i < histograms.size(); i++) {
            try {
                AgentHistograms.add(merged, histograms.get(i));
            } catch (java.util.zip.DataFormatException e) {
                throw new IOException("load agent " + i + " (clients-" + i + ".log) sent a bad histogram", e);
            }
        }
        return LatencySummary.of(merged);
    }

    /** Sends {@code command} to every agent, then waits (up to {@code each} per agent) for every agent's {@code reply}. */
    List<String> ask(String command, String reply, Duration each) throws IOException, InterruptedException {
        for (AgentProcess a : agents) {
            a.send(command);
        }
        List<String> out = new ArrayList<>();
        for (AgentProcess a : agents) {
            out.add(a.await(reply, each));
        }
        return out;
    }

    /** As {@link #ask(String, String, Duration)}, every reply read as JSON of {@code type}. */
    <T> List<T> ask(String command, String reply, Class<T> type, Duration each) throws IOException, InterruptedException {
        List<T> out = new ArrayList<>();
        for (String json : ask(command, reply, each)) {
            out.add(NotifyJson.mapper().readValue(json, type));
        }
        return out;
    }

    private List<PhaseReport> gather(String prefix, Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        List<PhaseReport> out = new ArrayList<>();
        for (AgentProcess a : agents) {
            Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
            out.add(a.awaitJson(prefix, PhaseReport.class, left));
        }
        return out;
    }

    /** Sum of the agents' latest progress lines. */
    AgentProcess.Progress progress() {
        long open = 0;
        long done = 0;
        long failed = 0;
        long rejected = 0;
        long events = 0;
        for (AgentProcess a : agents) {
            AgentProcess.Progress p = a.progress();
            open += p.open();
            done += p.done();
            failed += p.failed();
            rejected += p.rejected();
            events += p.events();
        }
        return new AgentProcess.Progress(open, done, failed, rejected, events);
    }

    @Override
    public void close() {
        agents.forEach(AgentProcess::close);
    }
}
