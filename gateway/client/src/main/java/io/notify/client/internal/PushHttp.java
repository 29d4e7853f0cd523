package io.notify.client.internal;

import io.notify.client.NotifyClientException;
import io.notify.client.PushAddress;
import io.notify.client.PushConfig;
import io.notify.client.PushRegistration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The push API's requests (docs/push.md, "Registering a device") on the inbox API's path
 * ({@link InboxHttp#call}): the same gateway, token, 401 refresh and 503/429 retries; failures are
 * {@link NotifyClientException}s of kind {@code PUSH}.
 */
public final class PushHttp {

    static final String REGISTRATIONS = Endpoints.PUSH_PATH + "/registrations";
    private static final NotifyClientException.Kind PUSH = NotifyClientException.Kind.PUSH;

    private final InboxHttp http;

    public PushHttp(InboxHttp http) {
        this.http = http;
    }

    /** {@code GET /v1/push/config}. */
    public CompletableFuture<PushConfig> config() {
        String path = Endpoints.PUSH_PATH + "/config";
        return http.call(PUSH, "GET", "GET " + path, path, null, 200, PushJson::config);
    }

    /** {@code POST /v1/push/registrations}: 201 with the registration. */
    public CompletableFuture<PushRegistration> register(PushAddress address) {
        return http.call(PUSH, "POST", "POST " + REGISTRATIONS, REGISTRATIONS, PushJson.body(address), 201, PushJson::registration);
    }

    /** {@code GET /v1/push/registrations}. */
    public CompletableFuture<List<PushRegistration>> list() {
        return http.call(PUSH, "GET", "GET " + REGISTRATIONS, REGISTRATIONS, null, 200, PushJson::registrations);
    }

    /** {@code DELETE /v1/push/registrations/{id}}: 204; {@code id} is checked by the caller (nothing to escape). */
    public CompletableFuture<Void> unregister(String id) {
        String path = REGISTRATIONS + "/" + id;
        return http.call(PUSH, "DELETE", "DELETE " + path, path, null, 204, body -> null);
    }
}
