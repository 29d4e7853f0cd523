package io.notify.client;

import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.client.support.FakeHttpClient;
import io.notify.client.support.FakeHttpClient.Sent;
import io.notify.protocol.NotifyJson;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;

/**
 * A client of the gateway's user API (push registrations, preferences) on an {@link FakeHttpClient}:
 * never started, its gateway {@code wss://gw.test/base}, its tokens {@code t1}, {@code t2-fresh}, …
 * (one more each time the supplier is asked; {@code -fresh} when asked to refresh).
 */
abstract class UserApiFixture {

    final FakeHttpClient http = new FakeHttpClient();
    final AtomicInteger tokens = new AtomicInteger();
    final NotifyClient client = NotifyClient.builder().gateways("wss://gw.test/base/v1/ws")
            .token(refresh -> "t" + tokens.incrementAndGet() + (refresh ? "-fresh" : "")).listener(event -> { })
            .httpClient(http).build();

    @AfterEach
    void close() {
        client.close();
    }

    static JsonNode json(String text) throws Exception {
        return NotifyJson.mapper().readTree(text);
    }

    /** The NotifyClientException {@code call} (a {@code join()}) fails with. */
    static NotifyClientException failure(Runnable call) {
        return (NotifyClientException) assertThrows(CompletionException.class, call::run).getCause();
    }

    /** The last request sent. */
    Sent last() {
        return http.sent.get(http.sent.size() - 1);
    }
}
