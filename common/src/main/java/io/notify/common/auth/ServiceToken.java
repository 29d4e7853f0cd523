package io.notify.common.auth;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A shared secret one Notify service presents to another as {@code Authorization: Bearer <token>}
 * (gateways and fanout-streams instances to the query API). At least {@value BearerKeys#MIN_KEY_LENGTH}
 * characters of RFC 6750's token alphabet, so it fits a header and a comma-separated list as is.
 * Never printed: {@link #toString} is redacted, so a config record that holds one can be logged.
 */
public record ServiceToken(String value) {

    /** RFC 6750 {@code b64token}: what may follow {@code Bearer } in a header. */
    private static final Pattern TOKEN = Pattern.compile("^[A-Za-z0-9._~+/-]+=*$");

    public ServiceToken {
        if (value == null || value.length() < BearerKeys.MIN_KEY_LENGTH || !TOKEN.matcher(value).matches()) {
            throw new IllegalArgumentException("a service token is at least " + BearerKeys.MIN_KEY_LENGTH
                    + " characters of A-Z a-z 0-9 . _ ~ + / - (optionally ending in =)");
        }
    }

    /** The token in setting {@code key}; a {@link ConfigException} naming the key (never the value) when it is unusable. */
    public static ServiceToken of(String key, String value) {
        try {
            return new ServiceToken(value);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(key, e.getMessage());
        }
    }

    /** The comma-separated tokens of setting {@code key}, in order (empty when unset); each must be usable, none twice. */
    public static List<ServiceToken> list(Settings settings, String key) {
        List<ServiceToken> tokens = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        List<String> raw = settings.list(key);
        for (int i = 0; i < raw.size(); i++) {
            String which = "token " + (i + 1) + " of " + raw.size();
            try {
                tokens.add(new ServiceToken(raw.get(i)));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(key, which + ": " + e.getMessage());
            }
            if (!seen.add(raw.get(i))) {
                throw new ConfigException(key, which + " appears twice");
            }
        }
        return List.copyOf(tokens);
    }

    /** The value of an {@code Authorization} header that presents this token. */
    public String authorization() {
        return "Bearer " + value;
    }

    @Override
    public String toString() {
        return "ServiceToken[REDACTED]";
    }
}
