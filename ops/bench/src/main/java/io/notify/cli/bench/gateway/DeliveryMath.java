package io.notify.cli.bench.gateway;

/** Which client should have received how many events of a delivery run (event n goes to client n % modulus). */
final class DeliveryMath {

    private DeliveryMath() {
    }

    static long expectedFor(int client, long published, int modulus) {
        return client < 0 || client >= modulus || client >= published ? 0 : (published - 1 - client) / modulus + 1;
    }
}
