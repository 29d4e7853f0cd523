package io.notify.ingest.idempotency;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.notify.ingest.produce.Accepted;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * Remembers, per event id, the body digest and the (pending or final) Kafka result of the first
 * request that used the id, for a bounded window and a bounded number of ids. A second request
 * with the same id and body shares the first one's result (even while it is still in flight), so
 * it never causes a second Kafka record; the same id with another body is a conflict.
 *
 * <p>The memory is local to one ingest instance and lost on restart; fanout-streams dedups by id
 * again (24 h window), so a retry that slips past this store is still delivered once.
 */
public final class IdempotencyStore {

    /** The outcome of presenting an id. */
    public sealed interface Claim permits Fresh, Replay, Conflict {
    }

    /** First use: the caller must write the event and complete (or {@link #release}) the slot. */
    public record Fresh(CompletableFuture<Accepted> slot) implements Claim {
    }

    /** Seen before with the same body: answer with the original result. */
    public record Replay(CompletableFuture<Accepted> original) implements Claim {
    }

    /** Seen before with a different body. */
    public record Conflict() implements Claim {
    }

    private record Entry(byte[] digest, CompletableFuture<Accepted> result) {
    }

    private final Cache<String, Entry> entries;
    private final boolean enabled;

    public IdempotencyStore(Duration window, long maxEntries) {
        this.enabled = !window.isZero() && maxEntries > 0;
        this.entries = Caffeine.newBuilder()
                .expireAfterWrite(enabled ? window : Duration.ofMillis(1))
                .maximumSize(Math.max(1, maxEntries))
                .build();
    }

    public Claim claim(String id, byte[] digest) {
        CompletableFuture<Accepted> slot = new CompletableFuture<>();
        if (!enabled) {
            return new Fresh(slot);
        }
        Entry mine = new Entry(digest, slot);
        Entry existing = entries.asMap().putIfAbsent(id, mine);
        if (existing == null) {
            return new Fresh(slot);
        }
        return Arrays.equals(existing.digest, digest) ? new Replay(existing.result) : new Conflict();
    }

    /** Forgets a claim whose write failed, so a retry can write it; a newer claim of the same id is kept. */
    public void release(String id, CompletableFuture<Accepted> slot) {
        entries.asMap().computeIfPresent(id, (k, e) -> e.result == slot ? null : e);
    }

    public long size() {
        entries.cleanUp();
        return entries.estimatedSize();
    }
}
