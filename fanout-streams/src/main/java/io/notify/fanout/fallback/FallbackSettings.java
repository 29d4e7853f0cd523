package io.notify.fanout.fallback;

import java.time.Duration;

/**
 * {@code notify.fanout.fallback.*} (docs/inbox.md, "Offline fallback").
 *
 * @param checkInterval how often each task looks for due fallbacks: the timer's resolution
 * @param maxPerRun     fallbacks decided per task and check at most (the rest wait for the next check)
 * @param maxPending    pending fallbacks per task at most; more are not scheduled (counted)
 */
public record FallbackSettings(Duration checkInterval, int maxPerRun, long maxPending) {
}
