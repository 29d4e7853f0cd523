package io.notify.common.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Whether a host a user handed us (a Web Push endpoint) is on the public internet: what keeps a
 * registration from making the push sender call the operator's own network (SSRF). The gateway
 * checks the name when a device registers ({@link #looksPublic}); the sender checks the resolved
 * addresses before each connection ({@link #isPublic(InetAddress)}), so a name that later resolves
 * to a private address (DNS rebinding) is refused too. Loopback, private (RFC 1918, fc00::/7),
 * link-local, site-local, multicast, the unspecified address, CGNAT (100.64/10) and names such as
 * {@code localhost}, {@code *.local} and {@code *.internal} are not public.
 */
public final class PublicHosts {

    private PublicHosts() {
    }

    /** The host as written: false for a private literal address or a local-only name; a public-looking name is true. */
    public static boolean looksPublic(String host) {
        if (host == null || host.isEmpty()) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.equals("localhost") || h.endsWith(".localhost") || h.endsWith(".local") || h.endsWith(".internal")
                || h.endsWith(".lan") || h.endsWith(".home.arpa") || !h.contains(".") && !h.contains(":")) {
            return false;
        }
        if (isLiteral(h)) {
            try {
                return isPublic(InetAddress.getByName(h)); // a literal: parsed, never looked up
            } catch (UnknownHostException e) {
                return false;
            }
        }
        return true;
    }

    /** A resolved address: false for every kind named in the class comment. */
    public static boolean isPublic(InetAddress a) {
        if (a.isLoopbackAddress() || a.isAnyLocalAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress()
                || a.isMulticastAddress()) {
            return false;
        }
        byte[] b = a.getAddress();
        if (b.length == 4) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            return first != 0 && !(first == 100 && second >= 64 && second < 128) && !(first == 169 && second == 254)
                    && !(first == 192 && second == 0 && (b[2] & 0xff) == 0) && first < 224;
        }
        return (b[0] & 0xfe) != 0xfc; // fc00::/7, unique local
    }

    private static boolean isLiteral(String h) {
        return h.contains(":") || h.matches("[0-9.]+");
    }
}
