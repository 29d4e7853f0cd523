package io.notify.client;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where one device of the user can be reached by push when it is not connected (docs/push.md): an
 * FCM registration token ({@link Fcm}), an APNs device token with its app's topic and environment
 * ({@link Apns}), or a browser's Web Push subscription ({@link WebPush}, the fields of
 * {@code PushSubscription.toJSON()}). Registered with {@link NotifyClient#registerPush}; the
 * gateway derives the registration's id from the address, so registering the same one again gives
 * the same id.
 *
 * <p>The shape is checked here ({@link IllegalArgumentException} before anything is sent), as far as
 * the client can tell; the gateway checks the rest ({@code 400 invalid-body}: a Web Push endpoint must
 * be {@code https} on a public host, its keys a P-256 point and a 16-byte secret).
 */
public sealed interface PushAddress permits PushAddress.Fcm, PushAddress.Apns, PushAddress.WebPush {

    /** The provider this address belongs to. */
    PushProvider provider();

    /** An FCM registration token (Android, or an iOS app on Firebase). */
    static Fcm fcm(String token) {
        return new Fcm(token);
    }

    /** An APNs device token (hex) of the app {@code topic} (its bundle id) in {@code environment}. */
    static Apns apns(String token, String topic, ApnsEnvironment environment) {
        return new Apns(token, topic, environment);
    }

    /** A Web Push subscription without an expiration time. */
    static WebPush webPush(String endpoint, String p256dh, String auth) {
        return new WebPush(endpoint, null, p256dh, auth);
    }

    /** The APNs environment a device token belongs to: a development build's token is a sandbox one. */
    enum ApnsEnvironment {
        SANDBOX, PRODUCTION;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The environment of a wire name ({@code sandbox}, {@code production}). */
        public static ApnsEnvironment fromWire(String wire) {
            for (ApnsEnvironment e : values()) {
                if (e.wireName().equals(wire)) {
                    return e;
                }
            }
            throw new IllegalArgumentException("unknown APNs environment '" + wire + "'");
        }
    }

    /** An FCM registration token: 1..4,096 characters of {@code [A-Za-z0-9_:.-]}. */
    record Fcm(String token) implements PushAddress {

        private static final Pattern TOKEN = Pattern.compile("^[A-Za-z0-9_:.-]{1,4096}$");

        public Fcm {
            if (token == null || !TOKEN.matcher(token).matches()) {
                throw new IllegalArgumentException("an FCM token is 1..4096 characters of [A-Za-z0-9_:.-]");
            }
        }

        @Override
        public PushProvider provider() {
            return PushProvider.FCM;
        }

        @Override
        public String toString() {
            return "Fcm[token=" + Secrets.clip(token) + "]";
        }
    }

    /**
     * An APNs device token (64..200 hex digits, kept in lower case), the app's {@code topic} (its bundle
     * id, with a suffix such as {@code .voip} where the push type needs one) and the environment.
     */
    record Apns(String token, String topic, ApnsEnvironment environment) implements PushAddress {

        private static final Pattern TOKEN = Pattern.compile("^[0-9a-f]{64,200}$");
        private static final Pattern TOPIC = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9.-]{0,254}$");

        public Apns {
            token = token == null ? null : token.toLowerCase(Locale.ROOT);
            if (token == null || !TOKEN.matcher(token).matches()) {
                throw new IllegalArgumentException("an APNs device token is 64..200 hex digits");
            }
            if (topic == null || !TOPIC.matcher(topic).matches()) {
                throw new IllegalArgumentException("an APNs topic is the app's bundle id (1..255 of [A-Za-z0-9.-]), got '"
                        + Secrets.clip(topic) + "'");
            }
            Objects.requireNonNull(environment, "environment");
        }

        @Override
        public PushProvider provider() {
            return PushProvider.APNS;
        }

        @Override
        public String toString() {
            return "Apns[token=" + Secrets.clip(token) + ", topic=" + topic + ", environment=" + environment.wireName() + "]";
        }
    }

    /**
     * A Web Push subscription as a browser's {@code PushSubscription.toJSON()} gives it: the push
     * service's {@code endpoint} (an absolute {@code https} URL of at most 2,048 characters;
     * {@code http} only where the gateway allows private endpoints, in dev), its
     * {@code expirationTime} in epoch ms (null: none), and {@code keys.p256dh} and {@code keys.auth},
     * base64url.
     */
    record WebPush(String endpoint, Long expirationTime, String p256dh, String auth) implements PushAddress {

        private static final int MAX_ENDPOINT = 2048;
        private static final Pattern BASE64URL = Pattern.compile("^[A-Za-z0-9_-]{1,200}={0,2}$");

        public WebPush {
            if (endpoint == null || endpoint.isEmpty() || endpoint.length() > MAX_ENDPOINT) {
                throw new IllegalArgumentException("a Web Push endpoint is a URL of 1.." + MAX_ENDPOINT + " characters");
            }
            URI uri;
            try {
                uri = new URI(endpoint);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("a Web Push endpoint must be a URL: " + e.getReason());
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
                throw new IllegalArgumentException("a Web Push endpoint must be an https URL with a host");
            }
            if (expirationTime != null && expirationTime < 0) {
                throw new IllegalArgumentException("expirationTime must be epoch ms or null, got " + expirationTime);
            }
            if (p256dh == null || !BASE64URL.matcher(p256dh).matches()) {
                throw new IllegalArgumentException("keys.p256dh must be base64url");
            }
            if (auth == null || !BASE64URL.matcher(auth).matches()) {
                throw new IllegalArgumentException("keys.auth must be base64url");
            }
        }

        @Override
        public PushProvider provider() {
            return PushProvider.WEBPUSH;
        }

        @Override
        public String toString() {
            return "WebPush[endpoint=" + endpoint + ", expirationTime=" + expirationTime + ", keys=…]";
        }
    }
}

/** Keeps tokens out of logs and messages: their first characters only. */
final class Secrets {
    private Secrets() {
    }

    static String clip(String s) {
        return s == null ? "null" : s.length() <= 8 ? s : s.substring(0, 8) + "…";
    }
}
