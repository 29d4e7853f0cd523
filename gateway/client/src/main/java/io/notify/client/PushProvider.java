package io.notify.client;

import java.util.Locale;

/** The push providers of docs/push.md, by their wire names ({@code webpush}, {@code fcm}, {@code apns}). */
public enum PushProvider {
    /** A browser, through its vendor's Web Push service (RFC 8030). */
    WEBPUSH,
    /** Firebase Cloud Messaging. */
    FCM,
    /** Apple Push Notification service. */
    APNS;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The provider of a wire name; IllegalArgumentException for one this SDK does not know. */
    public static PushProvider fromWire(String wire) {
        for (PushProvider p : values()) {
            if (p.wireName().equals(wire)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown push provider '" + wire + "'");
    }
}
