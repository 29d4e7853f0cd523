package io.notify.cli.replay;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The second stage of a bounded read: a thread of its own that turns records, already in output
 * order, into rows (value scan), filters them and hands them to the sink. Scanning and formatting
 * cost about as much as the consumer's own record decoding, so running them beside the polling
 * thread rather than after it roughly halves the wall time on two cores.
 *
 * <p>Bounds: at most {@link #DEPTH} batches wait. Order: one consumer of one FIFO queue. When the
 * sink stops or fails, the thread keeps taking (and dropping) batches until {@link #finish}, so the
 * polling thread never blocks on a full queue; it sees {@link #stopped} and ends the read.
 */
final class RowPipeline {

    static final int DEPTH = 4;

    private static final List<ConsumerRecord<byte[], byte[]>> END = List.of();

    private final BlockingQueue<List<ConsumerRecord<byte[], byte[]>>> queue = new ArrayBlockingQueue<>(DEPTH);
    private final Thread thread;
    private final ValueScan.Paths paths;
    private final Predicate<Row> filter;
    private final BoundedRead.Sink sink;
    private volatile boolean stopped;
    private volatile Exception failure;
    private long matched;

    RowPipeline(ValueScan.Paths paths, Predicate<Row> filter, BoundedRead.Sink sink) {
        this.paths = paths;
        this.filter = filter;
        this.sink = sink;
        this.thread = new Thread(this::work, "notifyctl-replay-rows");
        thread.setDaemon(true);
        thread.start();
    }

    private void work() {
        try {
            List<ConsumerRecord<byte[], byte[]>> batch;
            while ((batch = queue.take()) != END) {
                for (int i = 0; i < batch.size() && !stopped; i++) {
                    ConsumerRecord<byte[], byte[]> r = batch.get(i);
                    Row row = new Row(r, ValueScan.of(r.value(), paths));
                    if (filter.test(row)) {
                        matched++;
                        stopped = !sink.accept(row);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = true;
        } catch (IOException | RuntimeException e) {
            failure = e;
            stopped = true;
            drainUntilEnd();
        }
    }

    private void drainUntilEnd() {
        try {
            while (queue.take() != END) {
                // the read is ending; drop what was already queued
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Queues a batch in output order; blocks while {@link #DEPTH} batches wait. */
    void put(List<ConsumerRecord<byte[], byte[]>> batch) throws InterruptedException {
        if (!batch.isEmpty()) {
            queue.put(batch);
        }
    }

    /** True once the sink asked to stop or failed: the read should end. */
    boolean stopped() {
        return stopped;
    }

    /** Ends the thread without waiting for queued rows, after the read failed. */
    void abort() {
        stopped = true;
        try {
            if (!queue.offer(END, 5, TimeUnit.SECONDS)) {
                thread.interrupt();
            }
        } catch (InterruptedException e) {
            thread.interrupt();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits for every queued row to be handled and the thread to end.
     *
     * @return the number of rows that passed the filter
     * @throws IOException or a runtime exception the sink threw
     */
    long finish() throws IOException, InterruptedException {
        queue.put(END);
        thread.join();
        Exception e = failure;
        if (e instanceof IOException io) {
            throw io;
        }
        if (e != null) {
            throw (RuntimeException) e;
        }
        return matched;
    }
}
