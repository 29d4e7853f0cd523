package io.notify.client;

import io.notify.client.internal.InboxHttp;
import io.notify.client.internal.InboxTracker;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.Position;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * The user's inbox on the gateway ({@code /v1/inbox}, docs/inbox-openapi.yaml): a page of the
 * history with each event's state, the unread and unseen counts, and marks (seen, read, archive)
 * that follow the user to every device. From {@link NotifyClient#inbox()}.
 *
 * <p>Every call is one HTTP request to the gateway the client connects to (the current URL of
 * {@link NotifyClientBuilder#gateways}), with the client's token as {@code Authorization: Bearer}: a
 * 401 asks the token supplier once for a fresh token ({@code refresh = true}) and repeats the
 * request; a 503 or 429 is repeated up to {@value InboxHttp#MAX_RETRIES} times after its
 * {@code Retry-After} (at most {@code 30 s}, plus jitter). Calls never block: each returns a future
 * that fails with a {@link NotifyClientException} of kind {@link NotifyClientException.Kind#INBOX}
 * (HTTP status, problem type and detail) when the gateway refuses, or wrapping the I/O error when it
 * cannot be reached. The futures complete on a thread of the HTTP client, not on the client's event
 * thread: do not wait for one inside a listener callback (it would stall the connection).
 *
 * <p>A mark is answered once the gateway wrote it durably ({@code 202}); it takes effect a commit
 * interval later, and then every connected device of the user gets the new counts
 * ({@link InboxListener#onState}). Marks are idempotent: repeating one changes nothing. Arguments are
 * checked here ({@link IllegalArgumentException}) before anything is sent. Thread-safe.
 */
public final class NotifyInbox {

    /** Which events a page shows: archived ones are left out by default. */
    public enum Archived {
        EXCLUDE, INCLUDE, ONLY;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The default page size (the gateway's). */
    public static final int DEFAULT_LIMIT = 20;
    /** The largest page. */
    public static final int MAX_LIMIT = 100;
    /** The most ids in one mark. */
    public static final int MAX_IDS = 100;
    private static final Pattern EVENT_ID = Pattern.compile("^[A-Za-z0-9._:-]{1,128}$");

    private final InboxHttp http;
    private final InboxTracker tracker;

    NotifyInbox(InboxHttp http, InboxTracker tracker) {
        this.http = http;
        this.tracker = tracker;
    }

    /** The newest page of the history ({@value #DEFAULT_LIMIT} events, archived ones left out). */
    public CompletableFuture<InboxPage> page() {
        return page(null, DEFAULT_LIMIT, Archived.EXCLUDE);
    }

    /**
     * A page of the history, newest first.
     *
     * @param before   only events with a lower seq (the {@link InboxPage#next()} of the previous page); null: from the newest
     * @param limit    1..{@value #MAX_LIMIT} events
     * @param archived which events to show
     */
    public CompletableFuture<InboxPage> page(Long before, int limit, Archived archived) {
        if (before != null) {
            seq("before", before);
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be from 1 to " + MAX_LIMIT + ", got " + limit);
        }
        return http.page(before, limit, Objects.requireNonNull(archived, "archived").wireName());
    }

    /** The unread and unseen counts as the gateway has them now ({@code GET /v1/inbox/unread}). */
    public CompletableFuture<InboxCounts> unreadCount() {
        return http.counts();
    }

    /** Marks every event up to seq {@code upTo} read (the user opened them; implies seen). */
    public CompletableFuture<Void> markRead(long upTo) {
        return mark(ReceiptKind.READ, null, upTo);
    }

    /** Marks exactly the events with these ids read (1..{@value #MAX_IDS} ids). */
    public CompletableFuture<Void> markRead(Collection<String> ids) {
        return mark(ReceiptKind.READ, ids);
    }

    /** Marks every event up to seq {@code upTo} seen (the user saw them listed: the bell was opened). */
    public CompletableFuture<Void> markSeen(long upTo) {
        return mark(ReceiptKind.SEEN, null, upTo);
    }

    /** Marks exactly the events with these ids seen. */
    public CompletableFuture<Void> markSeen(Collection<String> ids) {
        return mark(ReceiptKind.SEEN, ids);
    }

    /** Archives every event up to seq {@code upTo}: neither unread nor unseen, left out of pages by default. */
    public CompletableFuture<Void> archive(long upTo) {
        return mark(ReceiptKind.ARCHIVE, null, upTo);
    }

    /** Archives exactly the events with these ids. */
    public CompletableFuture<Void> archive(Collection<String> ids) {
        return mark(ReceiptKind.ARCHIVE, ids);
    }

    /**
     * Marks ({@code SEEN}, {@code READ} or {@code ARCHIVE}) every event up to {@code upTo} if
     * {@code upTo}'s epoch is still the stream's: a mark for a history that was replaced since (a
     * {@code reset}) is dropped by the platform instead of marking other events. Pass the position
     * of the newest event the user saw ({@link ClientEvent#position()}); the {@code long} forms
     * above mark the seqs of whatever history the stream has when the mark is applied.
     */
    public CompletableFuture<Void> mark(ReceiptKind kind, Position upTo) {
        return mark(kind, upTo.epoch(), upTo.seq());
    }

    /** Marks exactly the events with these ids ({@code SEEN}, {@code READ} or {@code ARCHIVE}). */
    public CompletableFuture<Void> mark(ReceiptKind kind, Collection<String> ids) {
        List<String> list = List.copyOf(ids); // no null ids
        if (list.isEmpty() || list.size() > MAX_IDS) {
            throw new IllegalArgumentException("give 1 to " + MAX_IDS + " event ids, got " + list.size());
        }
        for (String id : list) {
            if (!EVENT_ID.matcher(id).matches()) {
                throw new IllegalArgumentException("not an event id (1..128 characters of [A-Za-z0-9._:-]): '"
                        + (id.length() > 40 ? id.substring(0, 40) + "…" : id) + "'");
            }
        }
        return http.mark(markKind(kind), null, list, null);
    }

    /**
     * The client's unread estimate, when it keeps one ({@link NotifyClientBuilder#inbox}): the counts
     * of the last state change or of the counts read after the last connect, plus the durable events
     * of the user's stream received beyond their head. Empty until the first counts arrive.
     */
    public Optional<InboxCounts> estimate() {
        return tracker.current();
    }

    private CompletableFuture<Void> mark(ReceiptKind kind, String epoch, long upTo) {
        return http.mark(markKind(kind), seq("upTo", upTo), null, epoch);
    }

    private static ReceiptKind markKind(ReceiptKind kind) {
        if (!Objects.requireNonNull(kind, "kind").isMark()) {
            throw new IllegalArgumentException("a mark is seen, read or archive, not " + kind.wireName());
        }
        return kind;
    }

    private static long seq(String what, long seq) {
        if (seq < 1 || seq > Position.MAX_SEQ) {
            throw new IllegalArgumentException(what + " must be a seq from 1 to " + Position.MAX_SEQ + ", got " + seq);
        }
        return seq;
    }
}
