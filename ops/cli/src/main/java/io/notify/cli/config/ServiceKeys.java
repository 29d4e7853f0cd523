package io.notify.cli.config;

import io.notify.common.config.PlatformSettings;
import io.notify.common.config.SettingRead;
import io.notify.common.config.Settings;
import io.notify.fanout.FanoutConfig;
import io.notify.gateway.config.GatewayConfig;
import io.notify.ingest.IngestConfig;
import io.notify.push.PushConfig;
import io.notify.push.webpush.VapidKeys;
import io.notify.registry.lease.NodeRegistryConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The keys each service reads, found by running its config record's {@code load} on a {@link
 * Settings} that records every read ({@link SettingRead}). The settings given are the fewest that
 * let {@code load} finish and reach every conditional read: the required keys, and for the gateway
 * a JWKS URL, without which the {@code notify.gateway.jwt.jwks-*} keys are never asked for. The
 * values given never show in the reference: a read's default is the one at its call site.
 *
 * @param name     the reference's file name, {@code docs/config/<name>.md}
 * @param title    what the page is about
 * @param load     the service's one reading of its settings (as its {@code main} does)
 * @param reaching the settings that get {@code load} past its required keys and into its conditional reads
 */
record ServiceKeys(String name, String title, Consumer<Settings> load, Map<String, String> reaching) {

    /** A VAPID pair that passes validation (made for the reference, never used). */
    private static final VapidKeys REFERENCE_VAPID = VapidKeys.generate();

    /** A service token and a JWT audience that pass validation; never used to reach anything. */
    private static final String TOKEN = "reference-0123456789abcdef-0123456789";

    /** The shared keys first (each service page leaves them out), then the services. */
    static List<ServiceKeys> all() {
        return List.of(
                new ServiceKeys("common", "Settings every service shares (Kafka, topic prefix, Redis, registry key prefix); security in [docs/security.md](../security.md)",
                        PlatformSettings::load, Map.of()),
                new ServiceKeys("gateway", "Gateway node (gateway/server): GatewayConfig and the registry timings; the sections named below are in [docs/gateway.md](../gateway.md)",
                        // GatewayService.fromSettings reads exactly these two records
                        s -> {
                            GatewayConfig.load(s);
                            NodeRegistryConfig.load(s);
                        },
                        Map.of("notify.gateway.node-id", "gw-reference",
                                "notify.gateway.jwt.jwks-url", "https://jwks.example/keys",
                                "notify.gateway.jwt.issuer", "reference",
                                "notify.gateway.jwt.audience", "reference",
                                "notify.gateway.query-url", "https://query.example",
                                GatewayConfig.QUERY_TOKEN, TOKEN)),
                new ServiceKeys("ingest", "Ingest (the HTTP door): IngestConfig; details in [docs/operations.md](../operations.md)", IngestConfig::load,
                        Map.of("notify.ingest.api-keys", "reference:" + TOKEN)),
                new ServiceKeys("fanout-streams", "fanout-streams (router, sequencer, inbox, query API): FanoutConfig; the sections named below are in [fanout-streams/README.md](../../fanout-streams/README.md)",
                        FanoutConfig::load, Map.of(FanoutConfig.QUERY_TOKENS, TOKEN)),
                new ServiceKeys("push", "The push sender (push/): PushConfig; details in [docs/push.md](../push.md)", PushConfig::load,
                        // a subject, a team id and a service account turn each provider on, so their keys are read;
                        // the values are never used to reach anything
                        Map.of("notify.push.webpush.subject", "mailto:reference@example.invalid",
                                "notify.push.webpush.vapid-public-key", REFERENCE_VAPID.publicKeyBase64Url(),
                                "notify.push.webpush.vapid-private-key", REFERENCE_VAPID.privateKeyBase64Url(),
                                "notify.push.fcm.service-account", "{}",
                                "notify.push.apns.team-id", "ABCDE12345",
                                "notify.push.apns.key-id", "ABCDE12345",
                                "notify.push.apns.signing-key", "reference.p8")));
    }

    /** Every key {@link #load} reads, by key (the first read of a key read twice), sorted by key. */
    Map<String, SettingRead> reads() {
        List<SettingRead> heard = new ArrayList<>();
        load.accept(new Settings(reaching, Map.of(), heard::add));
        Map<String, SettingRead> byKey = new TreeMap<>();
        heard.forEach(r -> byKey.putIfAbsent(r.key(), r));
        return byKey;
    }
}
