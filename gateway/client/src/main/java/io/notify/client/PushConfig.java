package io.notify.client;

import java.util.Objects;
import java.util.Optional;

/**
 * What the gateway offers for push ({@code GET /v1/push/config}, {@link NotifyClient#pushConfig()}).
 *
 * @param webPushApplicationServerKey the VAPID public key (base64url) a browser subscribes with
 *                                    ({@code PushManager.subscribe}'s {@code applicationServerKey});
 *                                    empty when the deployment has no Web Push
 */
public record PushConfig(Optional<String> webPushApplicationServerKey) {

    public PushConfig {
        Objects.requireNonNull(webPushApplicationServerKey, "webPushApplicationServerKey");
    }
}
