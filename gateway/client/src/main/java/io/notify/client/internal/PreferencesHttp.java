package io.notify.client.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import io.notify.client.NotifyClientException;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.prefs.Preferences;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;

/**
 * The user's preferences ({@code /v1/preferences}; docs/inbox.md, "Preferences") on the inbox API's
 * path ({@link InboxHttp#call}): the same gateway, token, 401 refresh and 503/429 retries; failures are
 * {@link NotifyClientException}s of kind {@code PREFERENCES}. The document is notify-protocol's
 * {@link Preferences}, written as the gateway reads it and read leniently (fields this SDK does not
 * know are ignored, so the gateway may add some); an answer that is not a valid document is unreadable.
 */
public final class PreferencesHttp {

    private static final String PATH = Endpoints.PREFERENCES_PATH;
    private static final NotifyClientException.Kind PREFERENCES = NotifyClientException.Kind.PREFERENCES;
    private static final ObjectReader READER = NotifyJson.mapper().readerFor(Preferences.class)
            .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final InboxHttp http;

    public PreferencesHttp(InboxHttp http) {
        this.http = http;
    }

    /** {@code GET /v1/preferences}: 200 with the document. */
    public CompletableFuture<Preferences> get() {
        return http.call(PREFERENCES, "GET", "GET " + PATH, PATH, null, 200, PreferencesHttp::read);
    }

    /** {@code PUT /v1/preferences}: 200 with the document stored. */
    public CompletableFuture<Preferences> put(Preferences preferences) {
        return http.call(PREFERENCES, "PUT", "PUT " + PATH, PATH, write(preferences), 200, PreferencesHttp::read);
    }

    /** {@code DELETE /v1/preferences}: 204. */
    public CompletableFuture<Void> reset() {
        return http.call(PREFERENCES, "DELETE", "DELETE " + PATH, PATH, null, 204, body -> null);
    }

    /** {@code {"types":{…},"categories":{…}}} and {@code "quietHours"} when set; a channel not set is left out. */
    static String write(Preferences preferences) {
        try {
            return NotifyJson.mapper().writeValueAsString(preferences);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Preferences read(String body) {
        try {
            Preferences p = READER.readValue(InboxJson.parse(body));
            if (p == null) {
                throw new IllegalArgumentException("not a preferences document");
            }
            return p;
        } catch (IOException e) { // a bad key, bound or quiet hours: the record's own message
            Throwable cause = e.getCause();
            throw new IllegalArgumentException(cause instanceof IllegalArgumentException ? cause.getMessage() : e.getMessage(), e);
        }
    }
}
