package io.notify.registry.route;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.notify.registry.ConnectionRef;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * Removes stale members from one stream's set with a compare-and-remove script, so that a removal
 * decided on an old reading can never delete a registration that is valid now.
 *
 * <p>A member is removed only if, at removal time inside Redis, either its lease has expired
 * ({@code score <= now}) or its score is still exactly the one the router saw when it judged the
 * member's node dead or of an old incarnation. A heartbeat that renewed the lease, or a node that
 * came back and re-registered, changes the score and the member stays. (A node that comes back with
 * the same incarnation finds its liveness key gone and re-registers everything, so a removal that
 * lands just before that is repaired.) The script touches only the stream's own key, passed as
 * {@code KEYS[1]}, so on a Redis Cluster it runs on that key's master (RegistryKeysTest and
 * RegistryClusterIT check it).
 *
 * <p>At most one removal per stream and {@code maxInFlight} overall are outstanding; more are
 * dropped (the router sees the same stale members again and asks again). Never blocks.
 */
final class StaleRemover {

    /** Sent by the router for a member whose score it did not see: only lease expiry can remove it. */
    static final long UNSEEN = -1;

    // KEYS[1] = the stream's set; ARGV[1] = now (ms); then pairs: member, score seen (-1 = unseen)
    static final String SCRIPT = """
            local now = tonumber(ARGV[1])
            local removed = 0
            for i = 2, #ARGV, 2 do
              local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
              if score then
                score = tonumber(score)
                if score <= now or score == tonumber(ARGV[i + 1]) then
                  removed = removed + redis.call('ZREM', KEYS[1], ARGV[i])
                end
              end
            end
            return removed
            """;

    /** One member to remove and the score the router saw for it ({@link #UNSEEN} if none). */
    record Candidate(ConnectionRef connection, long seenScore) {
    }

    private final String sha;
    private final Semaphore inFlight;
    private final Set<String> keysInFlight = ConcurrentHashMap.newKeySet();

    StaleRemover(int maxInFlight) {
        this.sha = sha1(SCRIPT);
        this.inFlight = new Semaphore(maxInFlight);
    }

    /**
     * @return the number of members removed; completes with -1 when the request was dropped because
     *         one is already outstanding for this key or too many are outstanding overall
     */
    CompletableFuture<Long> remove(RedisClusterAsyncCommands<String, String> redis, String key, List<Candidate> candidates, long nowMs) {
        if (candidates.isEmpty()) {
            return CompletableFuture.completedFuture(0L);
        }
        if (!keysInFlight.add(key)) {
            return CompletableFuture.completedFuture(-1L);
        }
        if (!inFlight.tryAcquire()) {
            keysInFlight.remove(key);
            return CompletableFuture.completedFuture(-1L);
        }
        List<String> args = new ArrayList<>(1 + 2 * candidates.size());
        args.add(Long.toString(nowMs));
        for (Candidate c : candidates) {
            args.add(c.connection().member());
            args.add(Long.toString(c.seenScore()));
        }
        String[] keys = {key};
        String[] values = args.toArray(String[]::new);
        CompletableFuture<Long> result;
        try {
            CompletableFuture<Long> bySha = redis.<Long>evalsha(sha, ScriptOutputType.INTEGER, keys, values).toCompletableFuture();
            result = bySha.handle((removed, failure) -> {
                if (failure == null) {
                    return CompletableFuture.completedFuture(removed);
                }
                if (unwrap(failure) instanceof RedisNoScriptException) { // first use, or Redis restarted
                    return redis.<Long>eval(SCRIPT, ScriptOutputType.INTEGER, keys, values).toCompletableFuture();
                }
                return CompletableFuture.<Long>failedFuture(unwrap(failure));
            }).thenCompose(f -> f);
        } catch (RuntimeException e) {
            result = CompletableFuture.failedFuture(e);
        }
        return result.whenComplete((removed, failure) -> {
            keysInFlight.remove(key);
            inFlight.release();
        });
    }

    static String sha1(String script) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(script.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JVM", e);
        }
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }
}
