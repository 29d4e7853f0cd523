package io.notify.protocol.push;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A user's push registrations, oldest first: the value of the {@code push-registrations} store and
 * of the compacted {@code notify.push-registrations} topic (the latest per user). {@code change} is
 * the change that made this state, so a replay of the topic shows why a registration came or went
 * (docs/push.md). {@code updatedAt} is that change's {@code at}.
 */
@JsonPropertyOrder({"stream", "registrations", "change", "updatedAt"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PushRegistrations(StreamId stream, List<PushRegistration> registrations, PushChange change, long updatedAt) {

    public PushRegistrations {
        if (stream == null || !stream.isUser()) {
            throw new IllegalArgumentException("stream must be a user's stream u:<user>, got " + stream);
        }
        registrations = registrations == null ? List.of() : List.copyOf(registrations);
    }

    public static PushRegistrations empty(StreamId stream) {
        return new PushRegistrations(stream, List.of(), null, 0);
    }

    /** The registration with this id, or null. */
    public PushRegistration find(String id) {
        for (PushRegistration r : registrations) {
            if (r.id().equals(id)) {
                return r;
            }
        }
        return null;
    }

    /**
     * This state with {@code change} applied: a registration replaces one with its id (keeping the
     * first {@code createdAt}, as the same address registered again); past {@code max} the oldest
     * go ({@link Applied#evicted}); an unregister or gone of an unknown id changes nothing but
     * {@code change}.
     */
    public Applied apply(PushChange change, int max) {
        List<PushRegistration> next = new ArrayList<>(registrations);
        PushRegistration old = find(change.id());
        next.removeIf(r -> r.id().equals(change.id()));
        List<PushRegistration> evicted = new ArrayList<>();
        if (change.kind() == PushChange.Kind.REGISTER) {
            PushRegistration r = change.registration();
            if (old != null && old.createdAt() < r.createdAt()) {
                r = new PushRegistration(r.id(), r.webpush(), r.fcm(), r.apns(), old.createdAt());
            }
            next.add(r);
            next.sort(Comparator.comparingLong(PushRegistration::createdAt));
            while (next.size() > max) {
                evicted.add(next.remove(next.get(0) == r && next.size() > 1 ? 1 : 0));
            }
        }
        return new Applied(new PushRegistrations(stream, next, change, change.at()), old != null, evicted);
    }

    /** The result of {@link #apply}: the new state, whether the id was held before, and what the bound removed. */
    public record Applied(PushRegistrations state, boolean existed, List<PushRegistration> evicted) {
    }
}
