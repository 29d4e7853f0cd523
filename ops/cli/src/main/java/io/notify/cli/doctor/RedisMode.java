package io.notify.cli.doctor;

import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.List;

/**
 * Redis as the registry needs it: reachable ({@code PING}), in the mode the services are configured
 * for ({@code INFO cluster}'s {@code cluster_enabled} against {@code notify.redis.cluster}), and when
 * clustered, a healthy cluster ({@code CLUSTER INFO}'s {@code cluster_state:ok}).
 */
final class RedisMode {

    static final String CHECK = "redis";

    private RedisMode() {
    }

    static List<Finding> check(RedisCommands<String, String> redis, String uriForHumans, boolean clusterConfigured) {
        long t0 = System.nanoTime();
        String pong = redis.ping();
        long micros = (System.nanoTime() - t0) / 1000;
        boolean clustered = "1".equals(field(redis.info("cluster"), "cluster_enabled"));
        String state = clustered ? field(redis.clusterInfo(), "cluster_state") : "";
        return judge(pong, micros, clustered, state, uriForHumans, clusterConfigured);
    }

    /** The verdict on what Redis answered. Pure. */
    static List<Finding> judge(String pong, long pingMicros, boolean clustered, String clusterState, String uri, boolean clusterConfigured) {
        List<Finding> out = new ArrayList<>();
        if (!"PONG".equals(pong)) {
            out.add(Finding.fail(CHECK, "PING to " + uri + " answered " + pong, "check notify.redis.uri"));
            return out;
        }
        if (clustered != clusterConfigured) {
            out.add(Finding.fail(CHECK, "Redis at " + uri + " is " + (clustered ? "a cluster" : "standalone") + " but notify.redis.cluster="
                    + clusterConfigured + ": the services " + (clustered ? "get MOVED errors for keys on other nodes" : "cannot connect in cluster mode"),
                    "set notify.redis.cluster=" + clustered + " on every service (and on doctor: --set), or point notify.redis.uri at the right Redis"));
        } else if (clustered && !"ok".equals(clusterState)) {
            out.add(Finding.fail(CHECK, "Redis cluster state is " + clusterState + ", not ok: some slots are not served",
                    "redis-cli --cluster check " + uri + ", then fix the failed or missing nodes"));
        } else {
            out.add(Finding.ok(CHECK, "PING answered in " + pingMicros / 1000.0 + " ms; " + (clustered ? "cluster, state ok" : "standalone")
                    + ", as notify.redis.cluster=" + clusterConfigured + " says"));
        }
        return out;
    }

    /** The value of {@code name:value} in an INFO-style reply, or "" when absent. */
    static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        return "";
    }
}
