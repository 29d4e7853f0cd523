package io.notify.cli.doctor;

import io.lettuce.core.api.sync.RedisCommands;
import io.notify.common.config.SettingRead;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * This machine's clock against Redis's ({@code TIME}) and a broker's: the broker's is the
 * {@code LogAppendTime} it stamps on a record produced to a scratch topic,
 * {@code <prefix>notify.doctor.clock} (one partition, one hour's retention, created on first use).
 * Each is read three times and the reading with the shortest round trip kept; the skew is the remote
 * time minus the midpoint of the round trip, accurate to half that round trip (typically a
 * millisecond or two on a LAN). Tokens' {@code exp}/{@code nbf}, latencies from record timestamps and
 * the fallback timers all compare clocks of different machines.
 */
final class ClockSkew {

    static final String CHECK = "clock";
    static final String SCRATCH_TOPIC = "notify.doctor.clock";
    private static final int READS = 3;

    /**
     * One measurement.
     *
     * @param against   what the local clock was compared with
     * @param skewMs    remote minus local, in ms
     * @param accuracyMs half the round trip of the kept reading
     */
    record Skew(String against, long skewMs, long accuracyMs) {
    }

    private ClockSkew() {
    }

    static Skew redis(RedisCommands<String, String> redis) {
        Skew best = null;
        for (int i = 0; i < READS; i++) {
            long t0 = System.currentTimeMillis();
            List<String> time = redis.time();
            long t1 = System.currentTimeMillis();
            long remote = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
            best = better(best, new Skew("Redis", remote - (t0 + t1) / 2, (t1 - t0 + 1) / 2));
        }
        return best;
    }

    static Skew broker(Admin admin, Producer<byte[], byte[]> producer, String topic, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        try {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(1), Optional.empty()).configs(Map.of(
                    TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime",
                    TopicConfig.RETENTION_MS_CONFIG, Long.toString(Duration.ofHours(1).toMillis())))))
                    .all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
        producer.send(new ProducerRecord<>(topic, new byte[0])).get(timeout.toMillis(), TimeUnit.MILLISECONDS); // metadata, connection
        Skew best = null;
        for (int i = 0; i < READS; i++) {
            long t0 = System.currentTimeMillis();
            RecordMetadata md = producer.send(new ProducerRecord<>(topic, new byte[0])).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            long t1 = System.currentTimeMillis();
            best = better(best, new Skew("the broker", md.timestamp() - (t0 + t1) / 2, (t1 - t0 + 1) / 2));
        }
        return best;
    }

    private static Skew better(Skew a, Skew b) {
        return a == null || b.accuracyMs() < a.accuracyMs() ? b : a;
    }

    /** FAIL above {@code fail}, WARN above {@code warn}, by the skew's size. Pure. */
    static List<Finding> judge(List<Skew> skews, Duration warn, Duration fail) {
        List<Finding> out = new ArrayList<>();
        List<String> fine = new ArrayList<>();
        for (Skew s : skews) {
            String what = "the local clock is " + Math.abs(s.skewMs()) + " ms " + (s.skewMs() > 0 ? "behind " : "ahead of ")
                    + s.against() + " (±" + s.accuracyMs() + " ms)";
            String fix = "synchronise every machine's clock with NTP (chrony, systemd-timesyncd): JWT expiry, latency figures and "
                    + "fallback timers compare clocks of different machines";
            if (Math.abs(s.skewMs()) > fail.toMillis()) {
                out.add(Finding.fail(CHECK, what + ", above --skew-fail " + SettingRead.format(fail), fix));
            } else if (Math.abs(s.skewMs()) > warn.toMillis()) {
                out.add(Finding.warn(CHECK, what + ", above --skew-warn " + SettingRead.format(warn), fix));
            } else {
                fine.add(what);
            }
        }
        if (!fine.isEmpty()) {
            out.add(0, Finding.ok(CHECK, String.join("; ", fine)));
        }
        return out;
    }
}
