package io.notify.platform;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.notify.fanout.FanoutConfig;
import io.notify.gateway.config.GatewayConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Map;
import java.util.List;
import java.util.UUID;

/**
 * The development credentials of a local platform: one HS256 secret for client tokens and one
 * service token for the fanout-streams query API (each created once per data dir, mode 600, or
 * random per test platform), and a fixed producer API key. The one place that mints dev and test
 * tokens. Dev only: production gateways verify tokens with an RSA/EC key set (JWKS) and never see
 * this secret, and production query tokens come from the operator's secret store.
 */
public final class DevKeys {

    public static final String ISSUER = "notify-dev";
    public static final String AUDIENCE = "notify";
    public static final String PRODUCER = "dev";
    public static final String PRODUCER_KEY = "dev-producer-key-change-me";
    static final String SECRET_FILE = "dev-jwt-secret";
    static final String QUERY_TOKEN_FILE = "dev-query-token";

    private final String secret;
    private final String queryToken;

    private DevKeys(String secret, String queryToken) {
        this.secret = secret;
        this.queryToken = queryToken;
    }

    /** A fresh random secret and query token that live only in memory: a test platform's. */
    public static DevKeys random() {
        return new DevKeys(newSecret(), newSecret());
    }

    private static String newSecret() {
        byte[] random = new byte[48];
        new SecureRandom().nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    /** Reads the data dir's secret and query token, creating each on first use. */
    public static DevKeys inDataDir(Path dataDir) throws IOException {
        return new DevKeys(readOrCreate(dataDir.resolve(SECRET_FILE)), readOrCreate(dataDir.resolve(QUERY_TOKEN_FILE)));
    }

    private static String readOrCreate(Path file) throws IOException {
        if (!Files.exists(file)) {
            Files.createDirectories(file.getParent());
            try {
                // created mode 600, so the secret is never readable by others, not even for a moment
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException e) {
                Files.createFile(file); // not a POSIX file system: the owner's defaults apply
            }
            Files.writeString(file, newSecret(), StandardCharsets.US_ASCII);
        }
        return Files.readString(file, StandardCharsets.US_ASCII).trim();
    }

    /** An existing data dir's secret; fails with a clear message when the stack was never started there. */
    public static DevKeys existing(Path dataDir) throws IOException {
        if (!Files.exists(dataDir.resolve(SECRET_FILE))) {
            throw new IOException("no dev key in " + dataDir + " (start the stack with 'notifyctl dev' first, or pass --data-dir)");
        }
        return inDataDir(dataDir);
    }

    public String secret() {
        return secret;
    }

    /** The service token of this platform's query API: what {@code notifyctl token --service} prints. */
    public String queryToken() {
        return queryToken;
    }

    /** The settings that make a gateway accept this key's tokens and present the query token. */
    public Map<String, String> gatewaySettings() {
        return Map.of("notify.gateway.jwt.hmac-secret", secret, "notify.gateway.jwt.issuer", ISSUER,
                "notify.gateway.jwt.audience", AUDIENCE, GatewayConfig.QUERY_TOKEN, queryToken);
    }

    /** The setting that makes a fanout-streams query API accept (only) this platform's query token. */
    public Map<String, String> fanoutSettings() {
        return Map.of(FanoutConfig.QUERY_TOKENS, queryToken);
    }

    /** The ingest setting that admits this stack's producer key. */
    public static String ingestApiKeys() {
        return PRODUCER + ":" + PRODUCER_KEY;
    }

    /** A client token for {@code userId}, valid for an hour. */
    public String token(String userId) {
        return token(userId, Duration.ofHours(1));
    }

    /** A client token for {@code userId}: sub = user, iss/aud of the dev stack, valid for {@code ttl}. */
    public String token(String userId, Duration ttl) {
        return token(userId, ttl, null);
    }

    /**
     * As {@link #token(String, Duration)}, with the {@code rooms} claim listing the room patterns the
     * user may join (docs/protocol.md, "Rooms and broadcast"); null: no claim.
     */
    public String token(String userId, Duration ttl, List<String> rooms) {
        Instant now = Instant.now();
        JWTClaimsSet.Builder builder = new JWTClaimsSet.Builder();
        if (rooms != null) {
            builder.claim("rooms", List.copyOf(rooms));
        }
        JWTClaimsSet claims = builder
                .subject(userId)
                .issuer(ISSUER)
                .audience(AUDIENCE)
                .issueTime(Date.from(now))
                .notBeforeTime(Date.from(now.minusSeconds(5)))
                .expirationTime(Date.from(now.plus(ttl)))
                .jwtID(UUID.randomUUID().toString())
                .build();
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
            jwt.sign(new MACSigner(secret.getBytes(StandardCharsets.US_ASCII)));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a dev token: " + e.getMessage(), e);
        }
    }
}
