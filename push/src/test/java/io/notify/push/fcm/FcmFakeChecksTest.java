package io.notify.push.fcm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.notify.devstack.TestClock;
import io.notify.push.fake.FcmFake;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The FCM fake refuses what FCM and Google's token endpoint refuse, so the sender's tests mean something. */
class FcmFakeChecksTest {

    private final TestClock clock = new TestClock(Instant.parse("2026-12-05T10:00:00Z"));
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private FcmFake fake;
    private ServiceAccount account;
    private String accessToken;

    @BeforeEach
    void start() throws Exception {
        fake = FcmFake.start(clock);
        account = ServiceAccount.parse(fake.serviceAccountJson());
        accessToken = new AccessTokenSource(account, http, clock, Duration.ofSeconds(5)).token().get(10, TimeUnit.SECONDS).value();
    }

    @AfterEach
    void stop() {
        fake.close();
    }

    private HttpResponse<String> post(URI uri, String contentType, String body, String bearer) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> sendMessage(String message) throws Exception {
        return post(fake.baseUrl().resolve("/v1/projects/" + fake.projectId() + "/messages:send"), "application/json",
                "{\"message\":" + message + "}", accessToken);
    }

    private HttpResponse<String> grant(JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(account.privateKeyId()).build(), claims);
        jwt.sign(new RSASSASigner(account.privateKey()));
        return post(account.tokenUri(), "application/x-www-form-urlencoded",
                "grant_type=" + AccessTokenSource.GRANT_TYPE + "&assertion=" + jwt.serialize(), null);
    }

    private JWTClaimsSet.Builder claims() {
        Instant now = clock.instant();
        return new JWTClaimsSet.Builder().issuer(account.clientEmail()).audience(account.tokenUri().toString())
                .claim("scope", AccessTokenSource.SCOPE).issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(3600)));
    }

    @Test
    void aWellFormedMessageIsTaken() throws Exception {
        String token = fake.register();
        HttpResponse<String> response = sendMessage("{\"token\":\"" + token + "\",\"data\":{\"a\":\"1\"},\"android\":{\"ttl\":\"3.5s\"}}");
        assertEquals(200, response.statusCode(), response.body());
    }

    @Test
    void malformedMessagesAreInvalidArguments() throws Exception {
        String token = "\"token\":\"" + fake.register() + "\"";
        for (String message : new String[] {
            "{" + token + ",\"data\":{\"seq\":42}}",
            "{" + token + ",\"android\":{\"ttl\":\"600\"}}",
            "{" + token + ",\"topic\":\"news\"}",
            "{\"data\":{\"a\":\"b\"}}",
            "{" + token + ",\"data\":{\"from\":\"x\"}}",
            "{" + token + ",\"android\":{\"priority\":\"high\"}}",
            "{" + token + ",\"apns\":{\"headers\":{\"apns-priority\":10}}}",
            "{" + token + ",\"webpush\":{\"headers\":{\"Topic\":\"" + "t".repeat(33) + "\"}}}",
            "{" + token + ",\"notification\":{\"subtitle\":\"x\"}}"}) {
            HttpResponse<String> response = sendMessage(message);
            assertEquals(400, response.statusCode(), message + " -> " + response.body());
            assertTrue(response.body().contains("INVALID_ARGUMENT"), response.body());
        }
    }

    @Test
    void sendsNeedAGoodTokenAndTheirOwnProject() throws Exception {
        String message = "{\"message\":{\"token\":\"" + fake.register() + "\"}}";
        URI send = fake.baseUrl().resolve("/v1/projects/" + fake.projectId() + "/messages:send");
        assertEquals(401, post(send, "application/json", message, null).statusCode());
        assertEquals(401, post(send, "application/json", message, "ya29.made-up").statusCode());
        assertEquals(403, post(fake.baseUrl().resolve("/v1/projects/other-project/messages:send"), "application/json", message, accessToken)
                .statusCode());

        clock.advance(Duration.ofHours(1));
        assertEquals(401, post(send, "application/json", message, accessToken).statusCode(), "the token expired");
    }

    @Test
    void theTokenEndpointChecksTheGrant() throws Exception {
        assertEquals(200, grant(claims().build()).statusCode());
        assertTrue(grant(claims().issuer("someone@else.example").build()).body().contains("invalid_grant"));
        assertTrue(grant(claims().audience("https://oauth2.googleapis.com/token").build()).body().contains("audience"));
        assertTrue(grant(claims().claim("scope", "https://www.googleapis.com/auth/cloud-platform").build()).body().contains("invalid_scope"));
        Instant now = clock.instant();
        HttpResponse<String> tooLong = grant(claims().expirationTime(Date.from(now.plusSeconds(3601))).build());
        assertEquals(400, tooLong.statusCode());
        assertTrue(tooLong.body().contains("short-lived"), tooLong.body());

        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        SignedJWT forged = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(account.privateKeyId()).build(), claims().build());
        forged.sign(new RSASSASigner(generator.generateKeyPair().getPrivate()));
        HttpResponse<String> response = post(account.tokenUri(), "application/x-www-form-urlencoded",
                "grant_type=" + AccessTokenSource.GRANT_TYPE + "&assertion=" + forged.serialize(), null);
        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains("Invalid JWT Signature"), response.body());
    }
}
