package io.notify.cli.bench.gateway;

import java.util.ArrayList;
import java.util.List;

/**
 * A load agent's per-client checks of a delivery run (its {@code verify} and {@code room-verify}
 * commands): what each client should have received against what its position tally counted.
 * Pure; on the agent's thread.
 */
final class AgentChecks {

    private long missing;
    private long extra;
    private long duplicates;
    private final List<Integer> shortClients = new ArrayList<>();

    private AgentChecks() {
    }

    /** Every client got its share of the {@code published} events (event n to client n % modulus) once. */
    static LoadAgent.Verified users(List<ClientConn> clients, long published, int modulus) {
        AgentChecks out = new AgentChecks();
        for (ClientConn c : clients) {
            out.add(c.index, DeliveryMath.expectedFor(c.index, published, modulus), c.tally, false);
        }
        return out.verified();
    }

    /** Every subscribed client got each of the {@code published} room events once, in order (none skipped). */
    static LoadAgent.Verified rooms(List<ClientConn> clients, long published) {
        AgentChecks out = new AgentChecks();
        for (ClientConn c : clients) {
            if (c.roomStream != null) {
                out.add(c.index, published, c.room, true);
            }
        }
        return out.verified();
    }

    /** One client's tally (null: nothing received) against {@code expected}; seqs a gap skipped count as missing when asked. */
    private void add(int client, long expected, ResumeTally t, boolean gapsMissing) {
        long got = t == null ? 0 : t.received();
        missing += Math.max(0, expected - got) + (gapsMissing && t != null ? t.skipped() : 0);
        extra += Math.max(0, got - expected);
        duplicates += t == null ? 0 : t.duplicates();
        if (got < expected && shortClients.size() < 20) {
            shortClients.add(client);
        }
    }

    private LoadAgent.Verified verified() {
        return new LoadAgent.Verified(missing, extra, duplicates, shortClients);
    }
}
