package io.notify.registry.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.registry.RegistryTesting;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** The stale-removal script against the shared real Redis (its removals: RegistryIT). */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StaleRemoverIT {

    @Test
    void theScriptsShaIsTheOneRedisComputesSoEvalshaHits(Infra infra) {
        try (RegistryTesting t = new RegistryTesting(infra.redisUri(), infra.prefix())) {
            assertEquals(t.raw().scriptLoad(StaleRemover.SCRIPT), StaleRemover.sha1(StaleRemover.SCRIPT), "EVALSHA hits");
        }
    }
}
