package io.notify.cli.bench;

import io.notify.cli.bench.report.Stats;
import io.notify.protocol.inbox.FallbackRecord;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The verdicts of {@code bench fallback}'s quiet and digest modes ({@link FallbackRules}) over the
 * {@code notify.fallback} records read back: what was lost, repeated, early or wrong, the lateness,
 * and the pushes per user. Pure.
 */
final class FallbackRulesCheck {

    /**
     * One record, reduced: whose, which event ({@code event}: the last of a digest), when it was sequenced,
     * due ({@code dueAt}) and written ({@code at}); its digest's key (null: not a digest), count and first event.
     */
    record Seen(String userId, String eventId, long sequencedAt, long dueAt, long at, String digestKey, long digestCount,
                String digestFirstId, long digestFirstSequencedAt) {

        static Seen of(FallbackRecord r) {
            FallbackRecord.Digested d = r.digest();
            return new Seen(r.userId(), r.event().id(), r.event().sequencedAt(), r.dueAt(), r.at(), d == null ? null : d.key(),
                    d == null ? 0 : d.count(), d == null ? null : d.first().id(), d == null ? 0 : d.first().sequencedAt());
        }
    }

    /**
     * The quiet mode: every event's fallback falls due inside the user's quiet hours, so each must be
     * written once, at or after the window's end ({@link QuietWindow#endsAt()}).
     *
     * @param records        records read
     * @param missing        events with no record
     * @param duplicates     records beyond the first of an event
     * @param early          records written before the window's end (goal 0)
     * @param notHeld        records whose {@code dueAt} is not the window's end: their fallback was not held
     * @param dueAfterEnd    events whose own due time ({@code sequencedAt + after}) was not inside the window, which
     *                       quiet hours must not hold: raise {@code --quiet-ends-in} (0 for a valid run)
     * @param usersOff       users whose records are not as many as their events
     * @param pushesPerUser  records per user (expected: events per user)
     * @param latenessMinMs  {@code at} minus the window's end, least; p50, p99 (nearest rank) and max follow
     * @param marginSeconds  the window's end minus the last event's own due time (how far inside the window it fell)
     */
    record Quiet(long events, long records, long missing, long duplicates, long early, long notHeld, long dueAfterEnd,
                 long usersOff, double pushesPerUser, double latenessMinMs, double latenessP50Ms, double latenessP99Ms,
                 double latenessMaxMs, double marginSeconds) {

        boolean ok() {
            return missing == 0 && duplicates == 0 && early == 0 && notHeld == 0 && usersOff == 0;
        }
    }

    /**
     * The digest mode: every user's events share one digest key and are sequenced within its window, so
     * each user gets exactly one record, due at the first event's {@code sequencedAt} plus the later of
     * {@code fallback.after} and {@code digest.window} (FallbackTimer), counting every event (no device:
     * none acknowledged or read), {@code digest.first} the user's first event and {@code event} the last.
     *
     * @param records        records read
     * @param missing        users with no record for the key
     * @param duplicates     records beyond the first of a user and key
     * @param wrongCount     records whose {@code digest.count} is not the user's events
     * @param wrongEnds      records whose {@code digest.first} is not the user's first event or {@code event} not the last
     * @param notDigests     records without {@code digest}
     * @param dueMismatch    records whose {@code dueAt} is not the due time above
     * @param early          records written before it (goal 0)
     * @param pushesPerUser  records per user (goal 1); {@code maxPushesPerUser} the most one user got
     * @param latenessMinMs  {@code at} minus the due time above, least; p50, p99 and max follow
     * @param spanSeconds    the longest first-to-last sequencing span of one record's events (under the window: all fold)
     */
    record Digests(long users, long perUser, long records, long missing, long duplicates, long wrongCount, long wrongEnds,
                   long notDigests, long dueMismatch, long early, double pushesPerUser, long maxPushesPerUser,
                   double latenessMinMs, double latenessP50Ms, double latenessP99Ms, double latenessMaxMs, double spanSeconds) {

        boolean ok() {
            return missing == 0 && duplicates == 0 && wrongCount == 0 && wrongEnds == 0 && notDigests == 0 && early == 0;
        }
    }

    private FallbackRulesCheck() {
    }

    /**
     * @param userOfEvent every published event's id and its user
     * @param windowEnd   the window's end, epoch ms
     * @param afterMs     the events' {@code fallback.after}
     */
    static Quiet quiet(List<Seen> seen, Map<String, String> userOfEvent, long windowEnd, long afterMs) {
        Set<String> distinct = new HashSet<>();
        Map<String, Long> eventsOf = count(userOfEvent.values());
        Map<String, Long> recordsOf = count(seen.stream().map(Seen::userId).toList());
        long[] lateness = seen.stream().mapToLong(s -> s.at() - windowEnd).sorted().toArray();
        long lastOwnDue = seen.stream().mapToLong(s -> s.sequencedAt() + afterMs).max().orElse(Long.MIN_VALUE);
        for (Seen s : seen) {
            distinct.add(s.eventId());
        }
        long missing = userOfEvent.keySet().stream().filter(id -> !distinct.contains(id)).count();
        long usersOff = eventsOf.entrySet().stream().filter(e -> !e.getValue().equals(recordsOf.getOrDefault(e.getKey(), 0L)))
                .count() + recordsOf.keySet().stream().filter(u -> !eventsOf.containsKey(u)).count();
        return new Quiet(userOfEvent.size(), seen.size(), missing, seen.size() - distinct.size(),
                seen.stream().filter(s -> s.at() < windowEnd).count(), seen.stream().filter(s -> s.dueAt() != windowEnd).count(),
                seen.stream().filter(s -> s.sequencedAt() + afterMs >= windowEnd).count(), usersOff,
                eventsOf.isEmpty() ? Double.NaN : (double) seen.size() / eventsOf.size(),
                lateness.length == 0 ? Double.NaN : lateness[0], Stats.quantile(lateness, 0.5), Stats.quantile(lateness, 0.99),
                lateness.length == 0 ? Double.NaN : lateness[lateness.length - 1],
                seen.isEmpty() ? Double.NaN : (windowEnd - lastOwnDue) / 1000.0);
    }

    /**
     * @param eventsOf each user's published event ids, in publishing order (all with the digest key {@code key})
     * @param dueAfterMs the later of the events' {@code fallback.after} and {@code digest.window}
     */
    static Digests digests(List<Seen> seen, Map<String, List<String>> eventsOf, String key, long dueAfterMs) {
        Map<String, Long> recordsOf = count(seen.stream().filter(s -> key.equals(s.digestKey())).map(Seen::userId).toList());
        long wrongCount = 0;
        long wrongEnds = 0;
        long dueMismatch = 0;
        long early = 0;
        long[] lateness = new long[seen.size()];
        long span = 0;
        for (int i = 0; i < seen.size(); i++) {
            Seen s = seen.get(i);
            List<String> ids = eventsOf.getOrDefault(s.userId(), List.of());
            long due = (s.digestKey() == null ? s.sequencedAt() : s.digestFirstSequencedAt()) + dueAfterMs;
            lateness[i] = s.at() - due;
            if (s.digestKey() == null) {
                continue;
            }
            wrongCount += s.digestCount() == ids.size() ? 0 : 1;
            wrongEnds += !ids.isEmpty() && ids.get(0).equals(s.digestFirstId()) && ids.get(ids.size() - 1).equals(s.eventId()) ? 0 : 1;
            dueMismatch += s.dueAt() == due ? 0 : 1;
            early += s.at() < due ? 1 : 0;
            span = Math.max(span, s.sequencedAt() - s.digestFirstSequencedAt());
        }
        Arrays.sort(lateness);
        long users = eventsOf.size();
        return new Digests(users, eventsOf.values().stream().mapToLong(List::size).max().orElse(0), seen.size(),
                eventsOf.keySet().stream().filter(u -> !recordsOf.containsKey(u)).count(),
                recordsOf.values().stream().mapToLong(n -> n - 1).sum(), wrongCount, wrongEnds,
                seen.stream().filter(s -> !key.equals(s.digestKey())).count(), dueMismatch, early,
                users == 0 ? Double.NaN : (double) seen.size() / users,
                count(seen.stream().map(Seen::userId).toList()).values().stream().mapToLong(Long::longValue).max().orElse(0),
                lateness.length == 0 ? Double.NaN : lateness[0], Stats.quantile(lateness, 0.5), Stats.quantile(lateness, 0.99),
                lateness.length == 0 ? Double.NaN : lateness[lateness.length - 1], span / 1000.0);
    }

    private static Map<String, Long> count(Iterable<String> keys) {
        Map<String, Long> n = new HashMap<>();
        for (String k : keys) {
            n.merge(k, 1L, Long::sum);
        }
        return n;
    }
}
