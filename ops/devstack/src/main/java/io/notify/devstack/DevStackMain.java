package io.notify.devstack;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a {@link DevStack} on the developer ports until Ctrl-C.
 *
 * <pre>
 * java -cp ... io.notify.devstack.DevStackMain [DATA_DIR | --data-dir DIR] [--kafka-port N]
 *      [--kafka-controller-port N] [--redis-port N]
 * </pre>
 *
 * Defaults: data dir {@code .notify-dev}, Kafka 9092 (controller 9093), Redis 6379. Kafka topics and
 * records are kept in the data dir across runs; Redis keeps nothing. Exit status 2 on bad arguments.
 */
public final class DevStackMain {

    private DevStackMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        DevStackOptions options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("devstack: " + e.getMessage());
            System.err.println("usage: DevStackMain [DATA_DIR | --data-dir DIR] [--kafka-port N] [--kafka-controller-port N]"
                    + " [--redis-port N]");
            System.exit(2);
            return;
        }
        PrintStream out = System.out;
        DevStack stack = DevStack.start(options);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            out.println("devstack: stopping");
            stack.close();
            stopped.countDown();
        }, "devstack-shutdown"));
        out.printf("devstack: Kafka %s, Redis %s, data in %s (started in %d ms). Ctrl-C stops.%n",
                stack.bootstrapServers(), stack.redisUri(), options.dataDir().toAbsolutePath(),
                stack.startupTime().toMillis());
        stopped.await();
    }

    static DevStackOptions parse(String[] args) {
        DevStackOptions options = DevStackOptions.dev(Path.of(".notify-dev"));
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (!flag.startsWith("--")) {
                options = options.withDataDir(Path.of(flag));
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            options = switch (flag) {
                case "--data-dir" -> options.withDataDir(Path.of(value));
                case "--kafka-port" -> options.withKafkaPort(port(flag, value));
                case "--kafka-controller-port" -> options.withKafkaControllerPort(port(flag, value));
                case "--redis-port" -> options.withRedisPort(port(flag, value));
                default -> throw new IllegalArgumentException("unknown option " + flag);
            };
        }
        return options;
    }

    private static int port(String flag, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a number, was '" + value + "'");
        }
    }
}
