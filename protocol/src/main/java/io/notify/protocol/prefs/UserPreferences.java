package io.notify.protocol.prefs;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.StreamId;

/**
 * A user's preferences as {@code notify.preferences} carries them (compacted, keyed by the user's
 * stream; a tombstone resets the user to {@link Preferences#NONE}) and fanout-streams keeps them, beside
 * the inbox. {@code updatedAt}: epoch ms of the change.
 */
@JsonPropertyOrder({"stream", "preferences", "updatedAt"})
public record UserPreferences(StreamId stream, Preferences preferences, long updatedAt) {

    public UserPreferences {
        if (stream == null || !stream.isUser()) {
            throw new IllegalArgumentException("stream must be a user's stream u:<user>, got " + stream);
        }
        preferences = preferences == null ? Preferences.NONE : preferences;
        if (updatedAt < 0) {
            throw new IllegalArgumentException("updatedAt must be epoch milliseconds >= 0");
        }
    }
}
