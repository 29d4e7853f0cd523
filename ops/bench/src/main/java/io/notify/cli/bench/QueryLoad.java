package io.notify.cli.bench;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * Closed-loop reads of the fanout-streams query API, run as its own JVM: {@code concurrency}
 * lanes, each a thread with one HTTP/1.1 keep-alive connection, each sending
 * {@code GET /v1/streams/u:<random user>/events?after=0&limit=10} with the instance's service token
 * ({@code Authorization: Bearer}) when the previous answer is in, until the duration is over. Counts
 * 200 answers as reads, anything else (a 401 included) as a failure; latency is per request. Runs
 * on {@link ClosedLoopHttp}.
 *
 * <pre>query &lt;host:port&gt; &lt;users&gt; &lt;durationMs&gt; &lt;concurrency&gt;</pre>
 *
 * The service token comes in the environment ({@link #TOKEN_ENV}), not on the command line.
 */
public final class QueryLoad {

    /** The environment variable holding the query API's service token. */
    static final String TOKEN_ENV = "NOTIFY_BENCH_QUERY_TOKEN";

    private QueryLoad() {
    }

    public static void main(String[] args) throws InterruptedException {
        String[] hp = args[0].split(":");
        ChildLoad.emit(run(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), Integer.parseInt(args[1]),
                Duration.ofMillis(Long.parseLong(args[2])), Integer.parseInt(args[3]), System.getenv(TOKEN_ENV)));
    }

    static LoadResult run(InetSocketAddress server, int users, Duration duration, int concurrency, String token)
            throws InterruptedException {
        return ClosedLoopHttp.run("query", server, concurrency, duration, lane -> {
            SplittableRandom random = new SplittableRandom(lane * 7919L + 1);
            return () -> new ClosedLoopHttp.Request(("GET /v1/streams/u:" + FanoutEvents.user(random.nextInt(users))
                    + "/events?after=0&limit=10 HTTP/1.1\r\nHost: " + server.getHostString()
                    + "\r\nAuthorization: Bearer " + token + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII), null, 200, 1);
        });
    }
}
