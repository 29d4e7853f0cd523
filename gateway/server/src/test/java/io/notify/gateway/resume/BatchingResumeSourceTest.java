package io.notify.gateway.resume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.devstack.Await;
import io.notify.gateway.config.GatewayConfig.ResumeBatching;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.support.Events;
import io.notify.protocol.frame.ResetFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The resume batcher over a scripted delegate whose batch answers the test completes. */
class BatchingResumeSourceTest {

    private static final Duration LONG = Duration.ofHours(1);
    private static final Duration WAIT = Duration.ofSeconds(5);

    /** Records each batch and hands back a future the test completes. */
    static final class ScriptedBatches implements ResumeSource {
        final List<List<FetchRequest>> batches = new CopyOnWriteArrayList<>();
        final List<CompletableFuture<List<FetchResult>>> answers = new CopyOnWriteArrayList<>();
        volatile boolean closed;

        @Override
        public CompletionStage<FetchResult> fetch(FetchRequest request) {
            throw new UnsupportedOperationException("the batcher only sends batches");
        }

        @Override
        public CompletionStage<List<FetchResult>> fetchAll(List<FetchRequest> requests) {
            CompletableFuture<List<FetchResult>> f = new CompletableFuture<>();
            answers.add(f);
            batches.add(List.copyOf(requests));
            return f;
        }

        void answerPages(int batch) {
            answers.get(batch).complete(batches.get(batch).stream()
                    .<FetchResult>map(r -> new FetchResult.Page(r.stream(), List.of(), false)).toList());
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private final ScriptedBatches delegate = new ScriptedBatches();
    private final GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());
    private BatchingResumeSource batcher;

    @AfterEach
    void close() {
        if (batcher != null) {
            batcher.close();
        }
    }

    private BatchingResumeSource batcher(int maxBatch, Duration linger, int inFlight, int maxQueue, Duration timeout) {
        batcher = new BatchingResumeSource(delegate, new ResumeBatching(maxBatch, linger, inFlight, maxQueue), timeout, metrics);
        return batcher;
    }

    private static FetchRequest request(int user) {
        return new FetchRequest(StreamId.forUser("u" + user), new Position("ep", user + 1), 100);
    }

    private List<CompletableFuture<FetchResult>> fetch(int from, int to) {
        List<CompletableFuture<FetchResult>> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(batcher.fetch(request(i)).toCompletableFuture());
        }
        return out;
    }

    private double bound(String bound) {
        return metrics.count("notify.gateway.resume.batch.bounds", "bound", bound);
    }

    @Test
    void fullBatchesGoAtOnceAndAFreedSlotSendsWhatWaited() {
        batcher(4, LONG, 2, 100, LONG);
        List<CompletableFuture<FetchResult>> results = fetch(0, 9);
        assertEquals(2, delegate.batches.size(), "two full batches, the slots are then busy");
        assertEquals(List.of(request(0), request(1), request(2), request(3)), delegate.batches.get(0));
        assertEquals(List.of(request(4), request(5), request(6), request(7)), delegate.batches.get(1));
        assertEquals(1, batcher.queued());
        assertEquals(1.0, bound("in_flight"), "the ninth fetch queued behind two busy slots");
        assertEquals(2.0, bound("max_batch"), "two batches went out full");

        delegate.answerPages(0);
        assertEquals(3, delegate.batches.size(), "the freed slot sends the waiting fetch without lingering");
        assertEquals(List.of(request(8)), delegate.batches.get(2));
        for (int i = 0; i < 4; i++) {
            FetchResult.Page page = assertInstanceOf(FetchResult.Page.class, results.get(i).join());
            assertEquals(request(i).stream(), page.stream());
        }
        assertTrue(results.subList(4, 9).stream().noneMatch(CompletableFuture::isDone));
    }

    @Test
    void identicalFetchesShareOneEntryAndItsAnswerWhileOthersKeepTheirOwn() {
        batcher(2, Duration.ofMillis(20), 1, 100, LONG);
        FetchRequest room = new FetchRequest(StreamId.BROADCAST, new Position("ep", 40), 100);
        List<CompletableFuture<FetchResult>> same = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            same.add(batcher.fetch(room).toCompletableFuture()); // every subscriber of b:all rechecks from the same position
        }
        FetchRequest later = new FetchRequest(StreamId.BROADCAST, new Position("ep", 41), 100);
        CompletableFuture<FetchResult> other = batcher.fetch(later).toCompletableFuture();
        CompletableFuture<FetchResult> third = batcher.fetch(request(7)).toCompletableFuture();
        assertEquals(1, delegate.batches.size(), "two distinct entries fill a batch, whatever the number of fetches");
        assertEquals(List.of(room, later), delegate.batches.get(0));
        assertEquals(49.0, metrics.count("notify.gateway.resume.fetches.coalesced"));
        FetchResult.Page page = new FetchResult.Page(StreamId.BROADCAST, List.of(Events.durable(StreamId.BROADCAST, "ep", 41)), false);
        delegate.answers.get(0).complete(List.of(page, new FetchResult.Failed(StreamId.BROADCAST, "query API: 503")));
        assertTrue(same.stream().allMatch(f -> f.join() == page), "the 50 identical fetches share the one answer");
        assertInstanceOf(FetchResult.Failed.class, other.join());
        assertEquals(2, delegate.batches.size(), "the freed slot sends the third stream");
        assertEquals(List.of(request(7)), delegate.batches.get(1));
        assertTrue(!third.isDone());
    }

    @Test
    void aPartialBatchGoesAfterTheLinger() {
        batcher(256, Duration.ofMillis(20), 4, 100, LONG);
        List<CompletableFuture<FetchResult>> results = fetch(0, 3);
        Await.until("the linger flush", WAIT, () -> delegate.batches.size() == 1);
        assertEquals(List.of(request(0), request(1), request(2)), delegate.batches.get(0));
        delegate.answerPages(0);
        assertTrue(results.stream().allMatch(f -> f.join() instanceof FetchResult.Page));
        assertEquals(1L, metrics.registry().get("notify.gateway.resume.batch.size").summary().count());
        assertEquals(3.0, metrics.registry().get("notify.gateway.resume.batch.size").summary().totalAmount());
    }

    @Test
    void eachFetchGetsItsOwnResultOrItsOwnError() {
        batcher(3, LONG, 1, 100, LONG);
        List<CompletableFuture<FetchResult>> results = fetch(0, 3);
        ResetFrame reset = ResetFrame.unknownStream(request(2).stream());
        delegate.answers.get(0).complete(List.of(
                new FetchResult.Page(request(0).stream(), List.of(Events.durable(request(0).stream(), "ep", 1)), false),
                new FetchResult.Failed(request(1).stream(), "query API: 503 rebalancing"),
                new FetchResult.Reset(reset)));
        assertEquals(1, assertInstanceOf(FetchResult.Page.class, results.get(0).join()).events().size());
        assertEquals("query API: 503 rebalancing", assertInstanceOf(FetchResult.Failed.class, results.get(1).join()).detail());
        assertEquals(reset, assertInstanceOf(FetchResult.Reset.class, results.get(2).join()).frame());
    }

    @Test
    void aFailedBatchFailsEachOfItsFetchesNeverExceptionallyAndFreesItsSlot() {
        batcher(2, LONG, 1, 100, LONG);
        List<CompletableFuture<FetchResult>> results = fetch(0, 4);
        delegate.answers.get(0).completeExceptionally(new IllegalStateException("boom"));
        for (int i = 0; i < 2; i++) {
            FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, results.get(i).join());
            assertEquals(request(i).stream(), failed.stream());
            assertTrue(failed.detail().contains("boom"), failed.detail());
        }
        assertEquals(2, delegate.batches.size(), "the slot was freed for the next batch");
        delegate.answers.get(1).complete(List.of(new FetchResult.Page(request(2).stream(), List.of(), false)));
        assertTrue(results.subList(2, 4).stream().allMatch(f -> f.join() instanceof FetchResult.Failed),
                "an answer that does not hold one result per request fails each fetch");
    }

    @Test
    void aFullQueueRefusesAtOnceAndCounts() {
        batcher(1, LONG, 1, 2, LONG);
        List<CompletableFuture<FetchResult>> results = fetch(0, 4);
        assertEquals(1, delegate.batches.size());
        assertEquals(2, batcher.queued());
        FetchResult.Failed refused = assertInstanceOf(FetchResult.Failed.class, results.get(3).getNow(null));
        assertTrue(refused.detail().contains("queue full"), refused.detail());
        assertEquals(1.0, bound("queue_full"));
        assertEquals(2.0, bound("in_flight"));
        delegate.answerPages(0);
        delegate.answerPages(1);
        delegate.answerPages(2);
        assertTrue(results.subList(0, 3).stream().allMatch(f -> f.join() instanceof FetchResult.Page));
        assertEquals(0, batcher.queued());
        assertEquals(0, batcher.inFlight());
    }

    @Test
    void anUnansweredBatchTimesOutFailsItsFetchesAndFreesItsSlot() {
        batcher(2, LONG, 1, 100, Duration.ofMillis(100));
        List<CompletableFuture<FetchResult>> results = fetch(0, 2);
        FetchResult first = results.get(0).orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
        assertTrue(assertInstanceOf(FetchResult.Failed.class, first).detail().contains("Timeout"), first.toString());
        assertInstanceOf(FetchResult.Failed.class, results.get(1).join());
        assertEquals(1.0, bound("timeout"));
        Await.until("the slot to be freed", WAIT, () -> batcher.inFlight() == 0);
        fetch(2, 4);
        assertEquals(2, delegate.batches.size(), "the freed slot takes the next batch");
    }

    @Test
    void aFetchItsCallerGaveUpOnIsNotSent() {
        batcher(1, LONG, 1, 100, LONG);
        List<CompletableFuture<FetchResult>> results = fetch(0, 3);
        results.get(1).completeExceptionally(new java.util.concurrent.TimeoutException("session gave up"));
        delegate.answerPages(0);
        assertEquals(List.of(request(2)), delegate.batches.get(1), "the abandoned fetch was skipped");
        assertEquals(1.0, bound("queue_wait"));
    }

    @Test
    void aFetchItsCallerWithdrewIsNotSentNorCounted() {
        batcher(1, LONG, 1, 100, LONG);
        List<CompletableFuture<FetchResult>> results = fetch(0, 3);
        results.get(1).complete(new FetchResult.Failed(request(1).stream(), "withdrawn")); // a head read an early resume made needless
        delegate.answerPages(0);
        assertEquals(2, delegate.batches.size());
        assertEquals(List.of(request(2)), delegate.batches.get(1), "the withdrawn fetch was skipped");
        assertEquals(0.0, bound("queue_wait"), "a withdrawal is not a wait bound");
    }

    @Test
    void closeFailsWaitingFetchesAndClosesTheDelegate() {
        batcher(1, LONG, 1, 100, LONG);
        List<CompletableFuture<FetchResult>> results = fetch(0, 2);
        batcher.close();
        assertInstanceOf(FetchResult.Failed.class, results.get(1).getNow(null));
        assertInstanceOf(FetchResult.Failed.class, batcher.fetch(request(5)).toCompletableFuture().getNow(null));
        assertTrue(delegate.closed);
    }
}
