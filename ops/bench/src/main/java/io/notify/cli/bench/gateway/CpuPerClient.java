package io.notify.cli.bench.gateway;

import java.io.IOException;
import java.util.List;

/**
 * CPU per client served in one phase (a ramp's connections, a storm round's resumes), from /proc:
 * the gateway node(s), the load agents, and the whole machine (everything on the box, including
 * Kafka, Redis and fanout-streams answering head reads and replays), plus how busy the machine was
 * (all cores). The gateway's figure is what a node needs per client; 1 s ÷ it is the rate one core
 * could sustain, whatever else the box runs.
 */
record CpuPerClient(double gatewayMicros, double gatewayJitMicros, double agentsMicros, double machineMicros, double machineBusy) {

    static CpuPerClient of(ProcessCpu.Used gateway, ProcessCpu.Used agents, int clients) {
        double n = Math.max(1, clients);
        return new CpuPerClient(gateway.processSeconds() * 1e6 / n, gateway.jitSeconds() * 1e6 / n,
                agents.processSeconds() * 1e6 / n, gateway.machineSeconds() * 1e6 / n, gateway.machineBusyFraction());
    }

    /** Starts a phase: the gateways' and agents' CPU now. */
    static Phase start(List<Long> gatewayPids, List<Long> agentPids) throws IOException {
        return new Phase(gatewayPids, agentPids, ProcessCpu.sample(gatewayPids), ProcessCpu.sample(agentPids));
    }

    /** A phase under way. */
    record Phase(List<Long> gatewayPids, List<Long> agentPids, ProcessCpu.Ticks gatewayBefore, ProcessCpu.Ticks agentsBefore) {

        /** The CPU used since the start, per one of {@code clients}. */
        CpuPerClient end(int clients) throws IOException {
            return of(ProcessCpu.sample(gatewayPids).since(gatewayBefore), ProcessCpu.sample(agentPids).since(agentsBefore), clients);
        }
    }

    /** "gateway 985 µs (JIT 230), agents 140 µs, machine 2,010 µs (busy 99%)" */
    String describe() {
        return String.format("gateway %,.0f µs (JIT %,.0f), agents %,.0f µs, machine %,.0f µs (busy %.0f%%)", gatewayMicros,
                gatewayJitMicros, agentsMicros, machineMicros, machineBusy * 100);
    }
}
