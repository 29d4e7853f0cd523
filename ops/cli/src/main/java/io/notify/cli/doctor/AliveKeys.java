package io.notify.cli.doctor;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.notify.registry.RegistryKeys;
import java.util.Map;
import java.util.TreeMap;

/**
 * The gateways' liveness keys at one moment ({@code nf:alive:<node>}, value the node's incarnation,
 * a TTL of {@code notify.registry.alive-ttl} refreshed every {@code alive-refresh}; registry/README.md).
 *
 * @param atMillis when the sample was taken (local clock)
 * @param keys     by node id
 */
record AliveKeys(long atMillis, Map<String, Key> keys) {

    /**
     * One liveness key.
     *
     * @param incarnation its value
     * @param pttlMillis  its remaining time to live; -1 when it has none
     */
    record Key(String incarnation, long pttlMillis) {
    }

    /**
     * Scans {@code <prefix>nf:alive:*} (SCAN, never KEYS) and reads each key's value and PTTL. On a
     * Cluster connection, Lettuce's SCAN walks every master and reads follow the slots.
     */
    static AliveKeys sample(RedisClusterCommands<String, String> redis, RegistryKeys registry) {
        String prefix = registry.alive("");
        Map<String, Key> keys = new TreeMap<>();
        long at = System.currentTimeMillis();
        ScanArgs match = ScanArgs.Builder.matches(glob(prefix) + "*").limit(1000);
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = redis.scan(cursor, match);
            for (String key : page.getKeys()) {
                String incarnation = redis.get(key);
                long pttl = redis.pttl(key);
                if (incarnation != null && pttl != -2) { // -2: expired between the scan and the read
                    keys.put(key.substring(prefix.length()), new Key(incarnation, pttl));
                }
            }
            cursor = page;
        } while (!cursor.isFinished());
        return new AliveKeys(at, keys);
    }

    /** {@code text} with the glob characters of SCAN MATCH escaped. */
    static String glob(String text) {
        return text.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
    }
}
