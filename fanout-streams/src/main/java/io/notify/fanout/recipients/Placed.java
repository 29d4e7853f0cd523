package io.notify.fanout.recipients;

/**
 * One recipient's copy of an event and whether it is sequenced in the task that read the event
 * ({@link RecipientPlacement}) or goes through the by-stream repartition topic. Lives only
 * between two processors of one task, so it needs no serde.
 */
public record Placed(RecipientEvent event, boolean local) {
}
