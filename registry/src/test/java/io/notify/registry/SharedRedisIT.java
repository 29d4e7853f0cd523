package io.notify.registry;

import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An IT of gateway nodes and routers against the run's shared Redis: each test gets a {@link
 * RegistryTesting} with its own key prefix, closed (with every node and router it made) after it.
 */
@ExtendWith(NotifyInfraExtension.class)
abstract class SharedRedisIT {

    RegistryTesting t;

    @BeforeEach
    void openRegistry(Infra infra) {
        t = new RegistryTesting(infra.redisUri(), infra.prefix());
    }

    @AfterEach
    void closeRegistry() {
        t.close();
    }
}
