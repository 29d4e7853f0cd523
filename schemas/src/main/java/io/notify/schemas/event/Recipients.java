package io.notify.schemas.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.notify.schemas.text.IdChars;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code to} object of an event. v1 addresses users only; {@code rooms} and {@code broadcast}
 * are reserved names for later versions (the v1 schema rejects them so nobody relies on them early).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Recipients(List<String> users) {

    /** Upper bound of recipients per event; larger audiences belong to rooms (later). */
    public static final int MAX_USERS = 1000;
    /** Excludes '{', '}' and '|' which would break Redis hash tags and registry members. */
    public static final Pattern USER_ID = Pattern.compile("^[A-Za-z0-9._:@-]{1,128}$");

    public Recipients {
        if (users == null || users.isEmpty()) {
            throw new IllegalArgumentException("to.users must name at least one user");
        }
        if (users.size() > MAX_USERS) {
            throw new IllegalArgumentException("to.users holds " + users.size() + " users; at most " + MAX_USERS);
        }
        users = List.copyOf(users);
        var seen = new HashSet<String>();
        for (String u : users) {
            if (!isUserId(u)) {
                throw new IllegalArgumentException("to.users: invalid user id '" + u + "'");
            }
            if (!seen.add(u)) {
                throw new IllegalArgumentException("to.users: duplicate user id '" + u + "'");
            }
        }
    }

    /** The punctuation {@link #USER_ID} allows besides ASCII letters and digits. */
    public static final String USER_ID_EXTRA = "._:@-";

    /** Whether {@code id} matches {@link #USER_ID} (checked without the regex, see {@link IdChars}). */
    public static boolean isUserId(String id) {
        return IdChars.matches(id, 1, 128, USER_ID_EXTRA, false);
    }

    public static Recipients users(String... users) {
        return new Recipients(List.of(users));
    }
}
