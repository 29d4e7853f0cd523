package io.notify.registry;

/** {@link RegistryContract} on the run's shared standalone Redis. */
class RegistryIT extends SharedRedisIT implements RegistryContract {

    @Override
    public RegistryTesting t() {
        return t;
    }
}
