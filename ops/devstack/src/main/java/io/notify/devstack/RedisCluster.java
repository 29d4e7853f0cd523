package io.notify.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Redis Cluster of {@value #MASTERS} masters and one replica each: six {@link RedisServer}
 * child processes with {@code --cluster-enabled yes}, a node timeout of {@link #NODE_TIMEOUT}
 * (failure detection, then the replica's election) and persistence off, on free ports whose cluster
 * bus ports (port + {@value #BUS_OFFSET}) were free too. The cluster is formed with
 * {@code redis-cli --cluster create ... --cluster-replicas 1} (Debian's redis-tools, next to
 * {@code redis-server}); the embedded fallback binary has no CLI, so a machine without it gets a
 * clear error.
 *
 * <p>Guarantees: {@link #start} returns once every node reports {@code cluster_state:ok} and knows
 * {@value #MASTERS} masters, each with its replica. {@link #killMaster} is SIGKILL of a master and
 * returns once its replica was promoted and every living node reports {@code cluster_state:ok}
 * again. {@link #close} stops every node and deletes their directories.
 */
public final class RedisCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisCluster.class);

    public static final int MASTERS = 3;
    static final int BUS_OFFSET = 10_000;
    public static final Duration NODE_TIMEOUT = Duration.ofMillis(2000);
    /** Forming the cluster, and a promotion after a kill (node timeout, election, gossip), on a loaded machine. */
    static final Duration SETTLE = Duration.ofSeconds(30);
    private static final Duration CLI_TIMEOUT = Duration.ofSeconds(20);

    private final List<RedisServer> nodes = new ArrayList<>();
    private Path cli;

    private RedisCluster() {
    }

    /** Six nodes on free ports with the redis-server from PATH (or the embedded one) and redis-cli beside it. */
    public static RedisCluster start() {
        return start(RedisOptions.defaults());
    }

    /**
     * Six nodes, each with {@code base} (binary, start timeout, extra arguments; its port must be 0 and
     * it must have no password: every node gets a free port and cluster arguments of its own).
     */
    public static RedisCluster start(RedisOptions base) {
        if (base.port() != 0 || base.password() != null || base.dataDir() != null) {
            throw new IllegalArgumentException("a Redis Cluster picks its own ports and directories and runs without a password: " + base);
        }
        RedisCluster cluster = new RedisCluster();
        try {
            cluster.launch(base);
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private void launch(RedisOptions base) {
        long begin = System.nanoTime();
        for (int port : FreePorts.pickPaired(2 * MASTERS, BUS_OFFSET)) {
            List<String> args = new ArrayList<>(base.extraArgs());
            args.addAll(List.of("--cluster-enabled", "yes",
                    "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", Long.toString(NODE_TIMEOUT.toMillis())));
            nodes.add(RedisServer.start(base.withPort(port).withExtraArgs(args)));
        }
        cli = cliBeside(nodes.get(0).binary());
        List<String> create = new ArrayList<>(List.of(cli.toString(), "--cluster", "create"));
        nodes.forEach(n -> create.add("127.0.0.1:" + n.port()));
        create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
        run(create);
        Await.until(() -> "cluster_state:ok and " + MASTERS + " masters with a replica each on every node: " + describe(),
                SETTLE, () -> formed(nodes));
        LOG.debug("Redis Cluster {} formed in {} ms", uris(), (System.nanoTime() - begin) / 1_000_000);
    }

    /** The seed URIs of every node, comma-separated: the {@code notify.redis.uri} of a cluster. */
    public String uris() {
        return nodes.stream().map(RedisServer::uri).collect(Collectors.joining(","));
    }

    /** The ports of the current masters, in slot order (the master of slot 0 first). */
    public List<Integer> masterPorts() {
        return masters(view()).stream().map(Node::port).toList();
    }

    /**
     * SIGKILL of the master that serves the {@code index}-th slot range ({@link #masterPorts()} order),
     * then waits until its replica took over and every living node reports {@code cluster_state:ok}.
     *
     * @return the port of the promoted replica, the range's master now
     */
    public int killMaster(int index) {
        List<Node> view = view();
        Node master = masters(view).get(index);
        Node replica = view.stream().filter(n -> master.id().equals(n.masterId())).findFirst()
                .orElseThrow(() -> new IllegalStateException("master " + master.port() + " has no replica: " + view));
        RedisServer doomed = server(master.port());
        long killedAt = System.nanoTime();
        doomed.kill();
        List<RedisServer> living = nodes.stream().filter(RedisServer::isAlive).toList();
        Await.until(() -> "replica " + replica.port() + " to take over from killed master " + master.port() + ": " + describe(),
                SETTLE, () -> promoted(replica.port(), living));
        LOG.info("Redis Cluster: master {} killed, replica {} promoted and cluster_state:ok after {} ms",
                master.port(), replica.port(), (System.nanoTime() - killedAt) / 1_000_000);
        return replica.port();
    }

    private boolean promoted(int replicaPort, List<RedisServer> living) {
        List<Node> view = view(server(replicaPort));
        boolean master = view.stream().anyMatch(n -> n.port() == replicaPort && n.master() && !n.slots().isEmpty());
        return master && living.stream().allMatch(n -> clusterInfo(n).contains("cluster_state:ok"));
    }

    private boolean formed(List<RedisServer> all) {
        for (RedisServer n : all) {
            if (!clusterInfo(n).contains("cluster_state:ok")) {
                return false;
            }
            List<Node> view = view(n);
            List<Node> masters = masters(view);
            if (masters.size() != MASTERS || !masters.stream().allMatch(m -> view.stream().anyMatch(r -> m.id().equals(r.masterId())))) {
                return false;
            }
        }
        return true;
    }

    private String clusterInfo(RedisServer n) {
        try {
            return run(List.of(cli.toString(), "-h", "127.0.0.1", "-p", Integer.toString(n.port()), "cluster", "info"));
        } catch (IllegalStateException notAnswering) {
            return "";
        }
    }

    /** {@code CLUSTER NODES} as a living node sees it. */
    private List<Node> view() {
        return view(nodes.stream().filter(RedisServer::isAlive).findFirst()
                .orElseThrow(() -> new IllegalStateException("no Redis Cluster node is running")));
    }

    private List<Node> view(RedisServer n) {
        String out;
        try {
            out = run(List.of(cli.toString(), "-h", "127.0.0.1", "-p", Integer.toString(n.port()), "cluster", "nodes"));
        } catch (IllegalStateException notAnswering) {
            return List.of();
        }
        return out.lines().filter(l -> !l.isBlank()).map(Node::parse).toList();
    }

    private static List<Node> masters(List<Node> view) {
        return view.stream().filter(n -> n.master() && !n.failed() && !n.slots().isEmpty())
                .sorted(Comparator.comparingInt(Node::firstSlot)).toList();
    }

    private RedisServer server(int port) {
        return nodes.stream().filter(s -> s.port() == port).findFirst()
                .orElseThrow(() -> new IllegalStateException("no node on port " + port));
    }

    private String describe() {
        return nodes.stream().map(n -> n.port() + (n.isAlive() ? "" : "(dead)")).collect(Collectors.joining(" "))
                + "\n" + view().stream().map(Node::toString).collect(Collectors.joining("\n"));
    }

    /** One line of {@code CLUSTER NODES}: id, address, flags, master id ("-" for a master), slot ranges. */
    record Node(String id, int port, List<String> flags, String masterId, List<String> slots) {

        static Node parse(String line) {
            String[] f = line.trim().split(" ");
            String address = f[1].substring(0, f[1].indexOf('@'));
            int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
            List<String> slots = Stream.of(f).skip(8).filter(s -> !s.startsWith("[")).toList();
            return new Node(f[0], port, List.of(f[2].split(",")), f[3], slots);
        }

        boolean master() {
            return flags.contains("master");
        }

        boolean failed() {
            return flags.contains("fail") || flags.contains("fail?");
        }

        int firstSlot() {
            return Integer.parseInt(slots.get(0).split("-")[0]);
        }
    }

    /** {@code redis-cli} in the directory of {@code redis-server}, else from PATH. */
    static Path cliBeside(Path server) {
        Path beside = server.resolveSibling("redis-cli");
        if (Files.isExecutable(beside)) {
            return beside;
        }
        return Optional.ofNullable(System.getenv("PATH")).stream()
                .flatMap(p -> Stream.of(p.split(java.io.File.pathSeparator)))
                .filter(d -> !d.isEmpty()).map(d -> Path.of(d, "redis-cli")).filter(Files::isExecutable).findFirst()
                .orElseThrow(() -> new IllegalStateException("a Redis Cluster needs redis-cli (Debian: redis-tools, installed "
                        + "with redis-server) beside " + server + " or on PATH"));
    }

    /** Runs a command to its end (bounded); returns its output, or throws with it when the exit code is not 0. */
    private static String run(List<String> command) {
        try {
            Path output = Files.createTempFile("redis-cli-", ".out");
            try {
                Process p = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(output.toFile()).start();
                if (!p.waitFor(CLI_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) { // bounded: a hung CLI fails the start
                    p.destroyForcibly();
                    throw new IllegalStateException(command + " did not end within " + CLI_TIMEOUT + ":\n"
                            + Files.readString(output, StandardCharsets.UTF_8));
                }
                String text = Files.readString(output, StandardCharsets.UTF_8);
                if (p.exitValue() != 0) {
                    throw new IllegalStateException(command + " failed (exit " + p.exitValue() + "):\n" + text);
                }
                return text;
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command, e);
        }
    }

    /** Stops every node (SIGTERM, bounded) and deletes their directories. */
    @Override
    public void close() {
        nodes.forEach(RedisServer::close);
    }

    @Override
    public String toString() {
        return "RedisCluster[" + uris() + "]";
    }
}
