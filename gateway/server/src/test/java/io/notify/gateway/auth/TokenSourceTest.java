package io.notify.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class TokenSourceTest {

    @Test
    void redactsAccessTokensTicketsAndBearerCredentials() {
        assertEquals("/v1/ws?ticket=REDACTED", TokenSource.redact("/v1/ws?ticket=Zm9vYmFyYmF6_-0123"));
        assertEquals("lastEventId=e:1&ticket=REDACTED&x=1", TokenSource.redact("lastEventId=e:1&ticket=abc-DEF_9&x=1"));
        assertEquals("TICKET=REDACTED#frag", TokenSource.redact("TICKET=abc#frag"));
        assertEquals("access_token=REDACTED&ticket=REDACTED", TokenSource.redact("access_token=a.b.c&ticket=t"));
        assertEquals("Authorization: Bearer REDACTED", TokenSource.redact("Authorization: Bearer a.b.c"));
        assertEquals("/v1/sse?lastEventId=e:3", TokenSource.redact("/v1/sse?lastEventId=e:3"));
        assertNull(TokenSource.redact(null));
    }
}
