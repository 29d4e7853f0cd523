package io.notify.gateway.session;

import io.notify.protocol.event.EventEnvelope;

/**
 * Publishes events the gateway itself originates: presence's join and leave, ephemeral room events
 * that reach every subscriber of the room through fanout-streams like any producer's. Never blocks,
 * never throws: a failure is counted and the event is dropped (ephemeral events are at most once).
 */
@FunctionalInterface
public interface Announcer {

    /** Does nothing: for nodes and tests without presence. */
    Announcer NONE = event -> { };

    void announce(EventEnvelope event);
}
