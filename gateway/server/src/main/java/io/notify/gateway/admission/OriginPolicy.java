package io.notify.gateway.admission;

import java.util.Set;

/**
 * The exact {@code Origin} allowlist of browser handshakes (cross-site WebSocket hijacking
 * defence): an origin is allowed only if it equals an entry byte for byte (scheme, host and port;
 * no wildcards, no suffix matching). A request without {@code Origin} comes from a non-browser
 * client and is allowed unless {@code requireOrigin} is set.
 */
public final class OriginPolicy {

    private final Set<String> allowed;
    private final boolean requireOrigin;

    public OriginPolicy(Set<String> allowed, boolean requireOrigin) {
        this.allowed = Set.copyOf(allowed);
        this.requireOrigin = requireOrigin;
    }

    public boolean allows(String origin) {
        if (origin == null) {
            return !requireOrigin;
        }
        return allowed.contains(origin);
    }
}
