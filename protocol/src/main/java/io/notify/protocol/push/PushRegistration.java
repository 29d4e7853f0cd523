package io.notify.protocol.push;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.text.Clip;
import io.notify.protocol.text.Digests;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Base64;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where one device of a user can be reached when it is not connected (docs/push.md): exactly one of
 * a Web Push subscription ({@code webpush}, as a browser's {@code PushSubscription.toJSON()} gives
 * it), an FCM registration token ({@code fcm}) or an APNs device token ({@code apns}).
 *
 * <p>{@code id} is derived from the provider and the address ({@link #idOf}), so registering the
 * same subscription or token again replaces the registration instead of adding one. {@code createdAt}
 * is when the gateway took it, in epoch ms. The shape is checked here; whether a Web Push endpoint's
 * host may be private or loopback is the gateway's setting ({@code push.allow-private-endpoints}).
 */
@JsonPropertyOrder({"id", "webpush", "fcm", "apns", "createdAt"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PushRegistration(String id, WebPush webpush, Fcm fcm, Apns apns, long createdAt) {

    /** A registration id: {@code pr_} and 22 base64url characters. */
    public static final Pattern ID = Pattern.compile("^pr_[A-Za-z0-9_-]{22}$");

    /** The providers, by their wire names. */
    public static final String WEBPUSH = "webpush";
    public static final String FCM = "fcm";
    public static final String APNS = "apns";

    public PushRegistration {
        int given = (webpush == null ? 0 : 1) + (fcm == null ? 0 : 1) + (apns == null ? 0 : 1);
        if (given != 1) {
            throw new IllegalArgumentException("a registration is exactly one of webpush, fcm and apns, got " + given);
        }
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("id must be pr_ and 22 base64url characters, got '" + Clip.clip(id) + "'");
        }
        if (createdAt < 0) {
            throw new IllegalArgumentException("createdAt must be epoch ms >= 0, got " + createdAt);
        }
    }

    /** A new registration with the id its address gives. */
    public static PushRegistration of(WebPush webpush, Fcm fcm, Apns apns, long createdAt) {
        String provider = webpush != null ? WEBPUSH : fcm != null ? FCM : APNS;
        String address = webpush != null ? webpush.endpoint() : fcm != null ? fcm.token() : apns.token() + "/" + apns.topic();
        return new PushRegistration(idOf(provider, address), webpush, fcm, apns, createdAt);
    }

    /** {@code webpush}, {@code fcm} or {@code apns}. */
    @JsonIgnore
    public String provider() {
        return webpush != null ? WEBPUSH : fcm != null ? FCM : APNS;
    }

    /** The stable id of an address: {@code pr_} and the first 22 base64url characters of SHA-256(provider, address). */
    public static String idOf(String provider, String address) {
        return "pr_" + Digests.sha256Base64Url(provider + "\n" + address, 22);
    }

    /**
     * A Web Push subscription (RFC 8030 endpoint, RFC 8291 keys): {@code endpoint} an absolute
     * {@code https} URL of at most 2,048 characters ({@code http} only where the gateway allows
     * private endpoints, for a local push service), {@code keys.p256dh} the user agent's P-256 public
     * key (65 bytes, uncompressed) and {@code keys.auth} its 16-byte secret, both base64url;
     * {@code expirationTime} as the browser gives it (epoch ms or null).
     */
    @JsonPropertyOrder({"endpoint", "expirationTime", "keys"})
    public record WebPush(String endpoint, Long expirationTime, Keys keys) {

        public static final int MAX_ENDPOINT = 2048;

        public WebPush {
            if (endpoint == null || endpoint.isEmpty() || endpoint.length() > MAX_ENDPOINT) {
                throw new IllegalArgumentException("webpush.endpoint must be a URL of 1.." + MAX_ENDPOINT + " characters");
            }
            URI uri;
            try {
                uri = new URI(endpoint);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("webpush.endpoint is not a URL: " + e.getReason());
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null || uri.getRawUserInfo() != null
                    || uri.getRawFragment() != null) {
                throw new IllegalArgumentException("webpush.endpoint must be an https URL with a host, without user info or fragment");
            }
            if (keys == null) {
                throw new IllegalArgumentException("webpush.keys (p256dh and auth) is required");
            }
            if (expirationTime != null && expirationTime < 0) {
                throw new IllegalArgumentException("webpush.expirationTime must be epoch ms or null");
            }
        }

        /** The endpoint's URI (checked by the constructor). */
        @JsonIgnore
        public URI uri() {
            return URI.create(endpoint);
        }
    }

    /** The user agent's keys of a Web Push subscription, base64url (padding tolerated). */
    public record Keys(String p256dh, String auth) {

        public Keys {
            byte[] key = decode("webpush.keys.p256dh", p256dh);
            if (key.length != 65 || key[0] != 4) {
                throw new IllegalArgumentException("webpush.keys.p256dh must be an uncompressed P-256 point (65 bytes), got "
                        + key.length + " bytes");
            }
            if (decode("webpush.keys.auth", auth).length != 16) {
                throw new IllegalArgumentException("webpush.keys.auth must be 16 bytes");
            }
        }

        /** {@code p256dh} decoded: 65 bytes, 0x04 || X || Y. */
        @JsonIgnore
        public byte[] publicKey() {
            return decode("webpush.keys.p256dh", p256dh);
        }

        /** {@code auth} decoded: 16 bytes. */
        @JsonIgnore
        public byte[] authSecret() {
            return decode("webpush.keys.auth", auth);
        }

        private static byte[] decode(String name, String value) {
            if (value == null || value.length() > 200) {
                throw new IllegalArgumentException(name + " is required (base64url)");
            }
            try {
                return Base64.getUrlDecoder().decode(value.replace("=", ""));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(name + " must be base64url");
            }
        }
    }

    /** An FCM registration token: 1..4,096 characters of {@code [A-Za-z0-9_:.-]}. */
    public record Fcm(String token) {

        public static final Pattern TOKEN = Pattern.compile("^[A-Za-z0-9_:.-]{1,4096}$");

        public Fcm {
            if (token == null || !TOKEN.matcher(token).matches()) {
                throw new IllegalArgumentException("fcm.token must be 1..4096 characters of [A-Za-z0-9_:.-]");
            }
        }
    }

    /**
     * An APNs device token (64..200 hex digits, kept lower case), the app's {@code topic} (its bundle
     * id, with a suffix such as {@code .voip} where the push type needs it) and the APNs
     * {@code environment} the token belongs to: {@code sandbox} or {@code production}.
     */
    @JsonPropertyOrder({"token", "topic", "environment"})
    public record Apns(String token, String topic, String environment) {

        public static final Pattern TOKEN = Pattern.compile("^[0-9a-f]{64,200}$");
        public static final Pattern TOPIC = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9.-]{0,254}$");

        public Apns {
            token = token == null ? null : token.toLowerCase(Locale.ROOT);
            if (token == null || !TOKEN.matcher(token).matches()) {
                throw new IllegalArgumentException("apns.token must be 64..200 hex digits");
            }
            if (topic == null || !TOPIC.matcher(topic).matches()) {
                throw new IllegalArgumentException("apns.topic must be the app's bundle id (1..255 of [A-Za-z0-9.-])");
            }
            if (!"sandbox".equals(environment) && !"production".equals(environment)) {
                throw new IllegalArgumentException("apns.environment must be sandbox or production, got '" + Clip.clip(environment) + "'");
            }
        }
    }
}
