package io.notify.protocol.prefs;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One entry of a user's preferences: whether events of a type or category reach them on each channel.
 * {@code true} or absent: on; {@code false}: off. {@code live}: delivery to the user's connected devices
 * (live and on resume); {@code inbox}: kept in the inbox (listed, counted unread, resumable); {@code push}:
 * the offline fallback, whatever its channel (push, e-mail). docs/inbox.md, "Preferences".
 */
@JsonPropertyOrder({"live", "inbox", "push"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Channels(Boolean live, Boolean inbox, Boolean push) {

    /** Every channel on (nothing said). */
    public static final Channels ON = new Channels(null, null, null);

    /** Each channel this entry sets, else {@code fallback}'s. */
    public Channels over(Channels fallback) {
        return new Channels(live != null ? live : fallback.live, inbox != null ? inbox : fallback.inbox,
                push != null ? push : fallback.push);
    }

    public boolean liveOn() {
        return live == null || live;
    }

    public boolean inboxOn() {
        return inbox == null || inbox;
    }

    public boolean pushOn() {
        return push == null || push;
    }
}
