package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.PrometheusText;
import io.notify.cli.bench.report.Stats;
import java.util.List;

/**
 * fanout-streams' transaction commits over one step, from two scrapes of every instance's
 * {@code /metrics} (summed over instances and stream threads): how many there were per second, how
 * many a stream thread asked for on catch-up ({@code notify_fanout_catch_up_commits_total}), and
 * what one took on average, split as Kafka's transactional producer times it: the flush of what
 * the transaction still had to send, {@code sendOffsetsToTransaction} (the input offsets) and
 * {@code commitTransaction} ({@code EndTxn}). The hop budget's {@code node_topic} is the wait for a
 * commit to start, this commit, and the gateway's read of the markers; this splits the commit out.
 */
public record CommitCost(double perSecond, double catchUpShare, double meanMs, double flushMs, double offsetsMs, double endTxnMs) {

    static final String COMMITS = "kafka_stream_thread_commit_total";
    static final String CATCH_UP = "notify_fanout_catch_up_commits_total";
    static final String FLUSH_NS = "kafka_producer_flush_time_ns_total";
    static final String OFFSETS_NS = "kafka_producer_txn_send_offsets_time_ns_total";
    static final String END_TXN_NS = "kafka_producer_txn_commit_time_ns_total";

    /** No commit seen (or no scrape). */
    static final CommitCost NONE = new CommitCost(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    /** The commits between the scrapes {@code before} and {@code after}, {@code seconds} apart. */
    static CommitCost between(List<PrometheusText> before, List<PrometheusText> after, double seconds) {
        double commits = delta(before, after, COMMITS);
        if (commits <= 0 || seconds <= 0) {
            return NONE;
        }
        double flush = delta(before, after, FLUSH_NS) / commits / 1e6;
        double offsets = delta(before, after, OFFSETS_NS) / commits / 1e6;
        double endTxn = delta(before, after, END_TXN_NS) / commits / 1e6;
        return new CommitCost(commits / seconds, delta(before, after, CATCH_UP) / commits, flush + offsets + endTxn, flush, offsets,
                endTxn);
    }

    private static double delta(List<PrometheusText> before, List<PrometheusText> after, String name) {
        return PrometheusText.sum(after, name) - PrometheusText.sum(before, name);
    }

    /** Each column's median over the runs, on its own. */
    static CommitCost median(List<CommitCost> runs) {
        List<CommitCost> of = runs.stream().filter(c -> c != null).toList();
        return new CommitCost(Stats.median(of, CommitCost::perSecond), Stats.median(of, CommitCost::catchUpShare), Stats.median(of, CommitCost::meanMs),
                Stats.median(of, CommitCost::flushMs), Stats.median(of, CommitCost::offsetsMs), Stats.median(of, CommitCost::endTxnMs));
    }


    /** "commit: 41.2/s (87% on catch-up), mean 9.8 ms = flush 4.1 + offsets 3.5 + EndTxn 2.2". */
    String describe() {
        if (Double.isNaN(perSecond)) {
            return "commit: none seen";
        }
        return String.format("commit: %.1f/s (%.0f%% on catch-up), mean %.1f ms = flush %.1f + offsets %.1f + EndTxn %.1f",
                perSecond, catchUpShare * 100, meanMs, flushMs, offsetsMs, endTxnMs);
    }
}
