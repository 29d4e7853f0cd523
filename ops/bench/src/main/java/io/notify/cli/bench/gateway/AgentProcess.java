package io.notify.cli.bench.gateway;

import io.notify.cli.stack.ChildAgent;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The parent's handle on one {@link LoadAgent} child JVM: a {@link ChildAgent} (commands on its
 * stdin, replies on its stdout, every wait bounded) plus the agent's "progress" line read as
 * {@link Progress}. {@link #close} ends the child (it also exits by itself at end of stdin).
 */
final class AgentProcess implements AutoCloseable {

    /** The latest "progress" line: open connections, phase done/failed/rejected, events received. */
    record Progress(long open, long done, long failed, long rejected, long events) {
        static final Progress NONE = new Progress(0, 0, 0, 0, 0);

        /** "open done failed rejected events", as {@link LoadAgent} prints it; NONE before the first. */
        static Progress parse(String line) {
            String[] f = line.split(" ");
            if (f.length < 5) {
                return NONE;
            }
            return new Progress(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]),
                    Long.parseLong(f[3]), Long.parseLong(f[4]));
        }
    }

    private final ChildAgent agent;

    private AgentProcess(ChildAgent agent) {
        this.agent = agent;
    }

    static AgentProcess start(List<String> jvmOptions, List<String> args, Path log) throws IOException {
        return new AgentProcess(ChildAgent.start(LoadAgent.class.getName(), jvmOptions, args, log));
    }

    Progress progress() {
        return Progress.parse(agent.progress());
    }

    long pid() {
        return agent.pid();
    }

    void send(String command) throws IOException {
        agent.send(command);
    }

    /** The rest of the next reply starting with {@code prefix}; fails on an error line, exit or timeout. */
    String await(String prefix, Duration bound) throws IOException, InterruptedException {
        return agent.await(prefix, bound);
    }

    <T> T awaitJson(String prefix, Class<T> type, Duration bound) throws IOException, InterruptedException {
        return NotifyJson.mapper().readValue(await(prefix, bound), type);
    }

    @Override
    public void close() {
        agent.close();
    }
}
