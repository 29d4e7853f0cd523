package io.notify.protocol.inbox;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The state of one event of a user's inbox, as its owner sees it. One value per event, the
 * strongest that applies: archived over read over seen over unseen (reading an event implies
 * seeing it; an archived event is neither unread nor unseen).
 */
public enum EventState {
    UNSEEN("unseen"),
    SEEN("seen"),
    READ("read"),
    ARCHIVED("archived");

    private final String wireName;

    EventState(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }
}
