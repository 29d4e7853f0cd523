package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Six real redis-server processes form a 3-master cluster that answers everywhere and survives a master's SIGKILL. */
@Timeout(90)
class RedisClusterIT {

    @Test
    void formsThreeMastersWithReplicasAndPromotesAReplicaWhenAMasterIsKilled() {
        try (RedisCluster cluster = RedisCluster.start()) {
            List<Integer> masters = cluster.masterPorts();
            assertEquals(RedisCluster.MASTERS, masters.size());
            RedisClusterClient client = RedisClusterClient.create(Arrays.stream(cluster.uris().split(",")).map(RedisURI::create).toList());
            try {
                RedisAdvancedClusterCommands<String, String> redis = client.connect().sync();
                for (int i = 0; i < 100; i++) {
                    redis.set("k" + i, "v" + i);
                }
                assertEquals(3, masters.stream().filter(p -> redis.getConnection("127.0.0.1", p).dbsize() > 0).count(),
                        "100 keys land on all three masters");

                int promoted = cluster.killMaster(1);

                List<Integer> after = cluster.masterPorts();
                assertEquals(List.of(masters.get(0), promoted, masters.get(2)), after);
                assertFalse(after.contains(masters.get(1)));
                assertTrue(cluster.uris().contains(":" + promoted));
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }
}
