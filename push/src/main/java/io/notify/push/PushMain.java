package io.notify.push;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;

/** Entry point: {@code java -cp ... io.notify.push.PushMain [key=value ...] [--config=FILE]} (docs/push.md, "Running it"). */
public final class PushMain {

    private PushMain() {
    }

    public static void main(String[] args) {
        PushService service;
        try {
            // a consumer dead of an error ends the process, so the orchestrator starts it again (readiness said so meanwhile)
            service = new PushService(PushConfig.load(Settings.fromArgs(args)), e -> Runtime.getRuntime().halt(1));
        } catch (ConfigException e) {
            System.err.println("notify-push: configuration error: " + e.getMessage());
            System.exit(2);
            return;
        }
        service.start();
        Runtime.getRuntime().addShutdownHook(new Thread(service::stop, "push-shutdown"));
    }
}
