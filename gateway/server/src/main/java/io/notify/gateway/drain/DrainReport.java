package io.notify.gateway.drain;

/**
 * What a drain did: how many connections it closed, how long it took, and whether every
 * connection was gone before the deadline (window + grace).
 */
public record DrainReport(int connections, long tookMillis, boolean complete) {
}
