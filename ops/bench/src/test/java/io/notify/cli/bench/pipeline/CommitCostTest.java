package io.notify.cli.bench.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.bench.PrometheusText;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommitCostTest {

    /** One instance's scrape: two stream threads' commit counters, its catch-up counter, two producers' timers (ns). */
    static PrometheusText scrape(double commitsA, double commitsB, double catchUp, double flushNs, double offsetsNs, double endNs) {
        return new PrometheusText(String.join("\n",
                "# TYPE kafka_stream_thread_commit_total counter",
                "kafka_stream_thread_commit_total{kafka_version=\"4.4.0\",thread_id=\"t-1\",} " + commitsA,
                "kafka_stream_thread_commit_total{kafka_version=\"4.4.0\",thread_id=\"t-2\",} " + commitsB,
                "notify_fanout_catch_up_commits_total " + catchUp,
                "kafka_producer_flush_time_ns_total{client_id=\"t-1-producer\",} " + flushNs / 2,
                "kafka_producer_flush_time_ns_total{client_id=\"t-2-producer\",} " + flushNs / 2,
                "kafka_producer_txn_send_offsets_time_ns_total{client_id=\"t-1-producer\",} " + offsetsNs,
                "kafka_producer_txn_commit_time_ns_total{client_id=\"t-1-producer\",} " + endNs,
                ""));
    }

    @Test
    void perCommitTimesAreTheTimersGrowthOverTheCommitsSummedOverInstancesAndThreads() {
        List<PrometheusText> before = List.of(scrape(100, 50, 90, 1e9, 2e9, 3e9), scrape(10, 0, 5, 0, 0, 0));
        // 200 commits in 10 s: 150 more on the first instance (two threads), 50 on the second; 160 asked on catch-up
        List<PrometheusText> after = List.of(scrape(200, 100, 230, 1e9 + 600e6, 2e9 + 500e6, 3e9 + 200e6),
                scrape(60, 0, 25, 200e6, 300e6, 200e6));
        CommitCost c = CommitCost.between(before, after, 10);
        assertEquals(20.0, c.perSecond(), 1e-9);
        assertEquals(0.8, c.catchUpShare(), 1e-9);
        assertEquals(4.0, c.flushMs(), 1e-9, "800 ms of flushing over 200 commits");
        assertEquals(4.0, c.offsetsMs(), 1e-9);
        assertEquals(2.0, c.endTxnMs(), 1e-9);
        assertEquals(10.0, c.meanMs(), 1e-9);
        assertTrue(c.describe().contains("20.0/s (80% on catch-up), mean 10.0 ms = flush 4.0 + offsets 4.0 + EndTxn 2.0"), c.describe());
    }

    @Test
    void noCommitIsNoFigure() {
        List<PrometheusText> same = List.of(scrape(5, 5, 5, 5, 5, 5));
        assertTrue(Double.isNaN(CommitCost.between(same, same, 10).meanMs()));
        assertTrue(Double.isNaN(CommitCost.between(List.of(), List.of(), 10).perSecond()), "no instance scraped");
        assertEquals("commit: none seen", CommitCost.NONE.describe());
    }

    @Test
    void theMedianIsTakenPerColumnAndSkipsStepsWithoutOne() {
        CommitCost median = CommitCost.median(Arrays.asList(new CommitCost(10, 0.5, 9, 4, 3, 2), null,
                new CommitCost(30, 0.9, 12, 6, 4, 2), new CommitCost(20, 0.7, 10, 5, 3, 2)));
        assertEquals(new CommitCost(20, 0.7, 10, 5, 3, 2), median);
    }
}
