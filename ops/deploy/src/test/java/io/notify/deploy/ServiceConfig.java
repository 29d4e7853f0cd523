package io.notify.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.deploy.PodEnv.MountedFile;
import io.notify.fanout.FanoutConfig;
import io.notify.gateway.config.GatewayConfig;
import io.notify.ingest.IngestConfig;
import io.notify.push.PushConfig;
import io.notify.push.apns.ApnsProvider;
import io.notify.push.fcm.FcmProvider;
import io.notify.push.webpush.VapidKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What a workload's configuration means to the service it runs, read by the service's own config
 * record ({@code GatewayConfig.load}, {@code FanoutConfig.load}, {@code IngestConfig.load},
 * {@code PushConfig.load}) from the environment the pod would get, so defaults and bounds are the
 * services' and never copied.
 *
 * <p>The push sender reads its keys from files ({@link #PUSH_FILES}): the files the pod mounts are
 * written to a scratch directory and the settings pointed there, so the load reads what the pod
 * would; a production placeholder file stands in as a freshly generated key of the right kind. Its
 * FCM and APNs keys are read when {@code PushService} builds its providers, so they are built here
 * too (and closed: nothing is sent).
 *
 * @param managementPort the port of {@code /healthz}, {@code /readyz} and {@code /metrics}
 * @param stopBound      how long the service may take from SIGTERM to exit
 * @param stopRule       which settings make up {@code stopBound}, for messages
 * @param config         the loaded record
 */
record ServiceConfig(int managementPort, Duration stopBound, String stopRule, Object config) {

    static final String GATEWAY = "notify-gateway";
    static final String FANOUT = "notify-fanout-streams";
    static final String INGEST = "notify-ingest";
    static final String PUSH = "notify-push";
    static final Set<String> WORKLOADS = Set.of(GATEWAY, FANOUT, INGEST, PUSH);

    /** The push sender's settings that name a file it reads (FCM and APNs: or hold the key itself, which is no path). */
    static final List<String> PUSH_FILES = List.of("NOTIFY_PUSH_WEBPUSH_VAPID_KEY_FILE", "NOTIFY_PUSH_FCM_SERVICE_ACCOUNT",
            "NOTIFY_PUSH_APNS_SIGNING_KEY", "NOTIFY_PUSH_APNS_CA_FILE");

    /** Loads the config of workload {@code name}; throws the service's own ConfigException when it would refuse to start. */
    static ServiceConfig load(String name, Map<String, String> env) {
        return load(name, env, Map.of());
    }

    /** As {@link #load(String, Map)}, with the files the pod mounts (by path in the container). */
    static ServiceConfig load(String name, Map<String, String> env, Map<String, MountedFile> files) {
        Settings settings = new Settings(Map.of(), env);
        return switch (name) {
            case GATEWAY -> {
                GatewayConfig c = GatewayConfig.load(settings);
                // GatewayMain's drain: connections closed over the window, everything stopped by
                // window + grace, then the receipts producer waits up to inbox.produce-timeout
                yield new ServiceConfig(c.managementPort(), c.drainWindow().plus(c.drainGrace()).plus(c.inbox().produceTimeout()),
                        "notify.gateway.drain-window + drain-grace + inbox.produce-timeout", c);
            }
            case FANOUT -> {
                FanoutConfig c = FanoutConfig.load(settings);
                yield new ServiceConfig(c.managementPort(), c.shutdownTimeout(), "notify.fanout.shutdown-timeout", c);
            }
            case INGEST -> {
                IngestConfig c = IngestConfig.load(settings);
                // IngestServer.stop waits for requests in flight up to produce-timeout + 1s
                yield new ServiceConfig(c.managementPort(), c.produceTimeout().plusSeconds(1), "notify.ingest.produce-timeout + 1s", c);
            }
            case PUSH -> {
                PushConfig c = loadPush(env, files);
                // PushService.stop: the batch in flight gets rebalance-wait, the consumer thread is joined
                // for rebalance-wait + 10s, then the producer and the providers close
                yield new ServiceConfig(c.managementPort(), c.rebalanceWait().plusSeconds(10), "notify.push.rebalance-wait + 10s", c);
            }
            default -> throw new IllegalArgumentException("not a Notify workload: " + name);
        };
    }

    /** The path settings of {@link #PUSH_FILES} that name no file the pod mounts, with the path. */
    static Map<String, String> unmountedPushFiles(Map<String, String> env, Map<String, MountedFile> files) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String var : PUSH_FILES) {
            String value = env.get(var);
            if (isPath(value) && !files.containsKey(value.strip())) {
                out.put(var, value.strip());
            }
        }
        return out;
    }

    private static boolean isPath(String value) {
        return value != null && value.strip().startsWith("/");
    }

    private static PushConfig loadPush(Map<String, String> env, Map<String, MountedFile> files) {
        Path dir;
        try {
            dir = Files.createTempDirectory("notify-deploy-push");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> local = new HashMap<>(env);
        Map<String, String> shown = new HashMap<>(); // scratch path → the path in the container, for messages
        try {
            for (String var : PUSH_FILES) {
                String value = env.get(var);
                MountedFile file = isPath(value) ? files.get(value.strip()) : null;
                if (file == null) {
                    continue; // unset, the key itself, or not mounted (ManifestChecker reports that before loading)
                }
                Path copy = dir.resolve(var.toLowerCase(Locale.ROOT));
                Files.writeString(copy, file.placeholder() ? standIn(var) : file.content(), StandardCharsets.UTF_8);
                local.put(var, copy.toString());
                shown.put(copy.toString(), value.strip());
            }
            try {
                PushConfig c = PushConfig.load(new Settings(Map.of(), local));
                if (c.fcm() != null) {
                    new FcmProvider(c.fcm()).close();
                }
                if (c.apns() != null) {
                    new ApnsProvider(c.apns()).close();
                }
                return c;
            } catch (ConfigException | IllegalArgumentException e) {
                String message = e.getMessage();
                for (Map.Entry<String, String> p : shown.entrySet()) {
                    message = message.replace(p.getKey(), p.getValue());
                }
                int colon = message.indexOf(": ");
                throw colon > 0 ? new ConfigException(message.substring(0, colon), message.substring(colon + 2))
                        : new ConfigException("notify.push", message);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a scratch directory left in /tmp
            }
        }
    }

    /** A key of the shape {@code var}'s file must have, for a production placeholder: nothing real is ever signed with it. */
    private static String standIn(String var) {
        if (!var.equals("NOTIFY_PUSH_FCM_SERVICE_ACCOUNT")) {
            return VapidKeys.generate().toPkcs8Pem(); // a P-256 PKCS#8 key: VAPID's and APNs' .p8 alike
        }
        try {
            KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
            rsa.initialize(2048);
            String pem = "-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(rsa.generateKeyPair().getPrivate().getEncoded())
                    + "\n-----END PRIVATE KEY-----\n";
            Map<String, String> account = new LinkedHashMap<>();
            account.put("type", "service_account");
            account.put("project_id", "stand-in-project");
            account.put("private_key_id", "stand-in");
            account.put("private_key", pem);
            account.put("client_email", "stand-in@stand-in-project.iam.gserviceaccount.com");
            account.put("token_uri", "https://oauth2.googleapis.com/token");
            return new ObjectMapper().writeValueAsString(account);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot make a stand-in service account", e);
        }
    }
}
