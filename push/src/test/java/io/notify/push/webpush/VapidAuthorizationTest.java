package io.notify.push.webpush;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class VapidAuthorizationTest {

    private static final Pattern HEADER = Pattern.compile("^vapid t=([A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+), k=([A-Za-z0-9_-]{87})$");
    private static final Instant START = Instant.parse("2026-12-04T10:00:00.250Z");

    private final VapidKeys keys = VapidKeys.generate();
    private final TestClock clock = new TestClock(START);
    private final VapidAuthorization vapid = new VapidAuthorization("mailto:ops@notify.example", keys, clock);

    @Test
    void signsAnEs256JwtForTheEndpointsOrigin() throws Exception {
        String header = vapid.headerFor(URI.create("https://Updates.Push.Example.NET/wpush/v2/abc?x=1"));

        Matcher m = HEADER.matcher(header);
        assertTrue(m.matches(), header);
        assertEquals(keys.publicKeyBase64Url(), m.group(2));
        SignedJWT jwt = SignedJWT.parse(m.group(1));
        assertEquals(JWSAlgorithm.ES256, jwt.getHeader().getAlgorithm());
        assertEquals(JOSEObjectType.JWT, jwt.getHeader().getType());
        assertTrue(jwt.verify(new ECDSAVerifier(keys.publicKey())));
        JWTClaimsSet claims = jwt.getJWTClaimsSet();
        assertEquals(List.of("https://updates.push.example.net"), claims.getAudience());
        assertEquals(START.getEpochSecond() + 12 * 3600, claims.getExpirationTime().toInstant().getEpochSecond());
        assertEquals("mailto:ops@notify.example", claims.getSubject());
        Map<String, Object> raw = jwt.getPayload().toJSONObject();
        assertEquals("https://updates.push.example.net", raw.get("aud"), "aud is a string, as RFC 8292 §2 writes it");
        assertEquals(Map.of("alg", "ES256", "typ", "JWT"), jwt.getHeader().toJSONObject());
        assertEquals(64, Base64.getUrlDecoder().decode(m.group(1).split("\\.")[2]).length, "JOSE R||S signature");
    }

    @Test
    void theAudienceKeepsOnlyANonDefaultPort() {
        assertEquals("https://push.example.net", VapidAuthorization.audienceOf(URI.create("https://push.example.net:443/a")));
        assertEquals("https://push.example.net:8443", VapidAuthorization.audienceOf(URI.create("https://push.example.net:8443/a")));
        assertEquals("http://127.0.0.1:5123", VapidAuthorization.audienceOf(URI.create("http://127.0.0.1:5123/push/x")));
        assertEquals("http://localhost", VapidAuthorization.audienceOf(URI.create("http://localhost:80/push/x")));
    }

    @Test
    void cachesOneTokenPerAudienceUntilLessThanAnHourIsLeft() throws Exception {
        URI fcm = URI.create("https://fcm.googleapis.com/fcm/send/abc");
        URI mozilla = URI.create("https://updates.push.services.mozilla.com/wpush/v2/def");
        String first = vapid.headerFor(fcm);

        clock.advance(Duration.ofHours(10));
        assertEquals(first, vapid.headerFor(URI.create("https://fcm.googleapis.com/fcm/send/other")), "same audience, 2 h left");
        assertNotEquals(first, vapid.headerFor(mozilla), "another audience has its own token");

        clock.advance(Duration.ofMinutes(61));
        String renewed = vapid.headerFor(fcm);
        assertNotEquals(first, renewed, "59 min left: signed again");
        Instant exp = SignedJWT.parse(HEADER.matcher(renewed).replaceFirst("$1")).getJWTClaimsSet().getExpirationTime().toInstant();
        assertEquals(clock.instant().getEpochSecond() + 12 * 3600, exp.getEpochSecond());
        assertEquals(renewed, vapid.headerFor(fcm));
    }
}
