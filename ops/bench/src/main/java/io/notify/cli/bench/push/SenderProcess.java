package io.notify.cli.bench.push;

import io.notify.common.config.Settings;
import io.notify.devstack.FreePorts;
import io.notify.devstack.JavaProcess;
import io.notify.push.PushMain;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;

/**
 * The app under test: one push sender ({@link PushMain}) in a child JVM ({@value #HEAP}), so its
 * CPU is its own in {@code /proc/<pid>/stat}. Its settings are {@code key=value} arguments, the
 * VAPID private key in its environment (a key is kept off command lines). Read from outside only:
 * {@code /readyz} on its management port, and its consumer group's assignment. {@link #close}
 * stops it (SIGTERM: it finishes and commits its batch; SIGKILL after 30 s).
 */
final class SenderProcess implements AutoCloseable {

    static final String HEAP = "-Xmx512m";
    /** The device rate limit given to the sender: the most it takes, so the limit never binds in a bench. */
    static final int UNBOUND_DEVICE_RATE = 100_000;
    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(5);

    private final JavaProcess process;
    private final int managementPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(HTTP_TIMEOUT).build();

    private SenderProcess(JavaProcess process, int managementPort) {
        this.process = process;
        this.managementPort = managementPort;
    }

    /**
     * The sender's settings for a run: the broker and prefix, Web Push with the run's VAPID public
     * key (the private one goes in the environment, {@link #privateKeyEnv}), {@code http} endpoints
     * allowed (the local receiver), the device rate limit out of the way, a management port; then
     * {@code extra} ({@code key=value}, e.g. {@code notify.push.max-in-flight}), which win.
     */
    static Map<String, String> settings(String bootstrap, String prefix, String subject, String vapidPublicKey, int managementPort,
                                        Map<String, String> extra) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("notify.kafka.bootstrap-servers", bootstrap);
        s.put("notify.topic-prefix", prefix);
        s.put("notify.push.management-host", "127.0.0.1");
        s.put("notify.push.management-port", Integer.toString(managementPort));
        s.put("notify.push.webpush.subject", subject);
        s.put("notify.push.webpush.vapid-public-key", vapidPublicKey);
        s.put("notify.push.webpush.allow-insecure-endpoints", "true");
        s.put("notify.push.device-rate-per-minute", Integer.toString(UNBOUND_DEVICE_RATE));
        s.put("notify.push.device-burst", Integer.toString(UNBOUND_DEVICE_RATE));
        s.putAll(extra);
        return s;
    }

    /** The environment that carries the VAPID private key (base64url). */
    static Map<String, String> privateKeyEnv(String vapidPrivateKey) {
        return Map.of(Settings.envName("notify.push.webpush.vapid-private-key"), vapidPrivateKey);
    }

    /** @param jvmOptions after {@value #HEAP}, so a heap given here wins */
    static SenderProcess start(String bootstrap, String prefix, String subject, io.notify.push.webpush.VapidKeys vapid,
                               Map<String, String> extra, List<String> jvmOptions, Path dir) throws IOException {
        int port = FreePorts.pick();
        List<String> args = new ArrayList<>();
        settings(bootstrap, prefix, subject, vapid.publicKeyBase64Url(), port, extra).forEach((k, v) -> args.add(k + "=" + v));
        List<String> jvm = new ArrayList<>(List.of(HEAP));
        jvm.addAll(jvmOptions);
        JavaProcess p = new JavaProcess(PushMain.class.getName(), args, jvm, dir.resolve("push.log"),
                privateKeyEnv(vapid.privateKeyBase64Url()));
        return new SenderProcess(p.start(), port);
    }

    long pid() {
        return process.pid();
    }

    Path logFile() {
        return process.logFile();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits until {@code /readyz} answers 200 (its consumer runs); fails if the child dies first. */
    void awaitReady(Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() - deadline < 0) {
            requireAlive();
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/readyz"))
                        .timeout(HTTP_TIMEOUT).GET().build(), HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // the JVM is still starting; try again
            }
            TimeUnit.MILLISECONDS.sleep(100); // poll interval of a bounded wait
        }
        throw new IOException("the push sender was not ready within " + bound + "; see " + logFile());
    }

    /**
     * Waits until the sender's consumer group ({@code group}) has all {@code partitions} of its topic
     * assigned, so the load does not start during its first rebalance.
     */
    void awaitAssigned(Admin admin, String group, int partitions, Duration bound)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() - deadline < 0) {
            requireAlive();
            try {
                ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all().get(5, TimeUnit.SECONDS).get(group);
                if (assigned(d == null ? List.of() : d.members()) >= partitions) {
                    return;
                }
            } catch (ExecutionException | TimeoutException notYet) {
                // the group is not there yet
            }
            TimeUnit.MILLISECONDS.sleep(100); // poll interval of a bounded wait
        }
        throw new IOException("the push sender's group " + group + " had not all " + partitions + " partitions within " + bound
                + "; see " + logFile());
    }

    private static int assigned(Collection<MemberDescription> members) {
        return members.stream().mapToInt(m -> m.assignment().topicPartitions().size()).sum();
    }

    private void requireAlive() throws IOException {
        if (!process.isAlive()) {
            throw new IOException("the push sender exited; see " + logFile());
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.stop(Duration.ofSeconds(30));
    }
}
