package io.notify.cli.bench.gateway;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Map;

/**
 * What one load agent reports for one phase (a ramp of connections, or one storm round), as one
 * JSON line to the parent. Times are microseconds from the phase's start (the command's arrival,
 * or the storm's common start instant).
 *
 * @param done          clients that reached the phase's goal (connected; or resumed with every missed event)
 * @param attempts      connection attempts, retries included
 * @param rejected      handshakes refused with 503 (admission control)
 * @param failures      attempts that failed, by reason ("http 503", "timeout", "eof", "connect: ...")
 * @param doneMicros    per done client: phase start → goal reached
 * @param resumeMicros  per done client: its first attempt's start → goal reached (connect + auth + register + replay)
 * @param welcomeMicros per done client: its first attempt's start → welcome of the attempt that reached the goal
 * @param dropped       connections that ended after reaching the goal
 */
@JsonIgnoreProperties(ignoreUnknown = true)
record PhaseReport(String kind, int clients, int done, long attempts, long rejected, Map<String, Long> failures,
                   long[] doneMicros, long[] resumeMicros, long[] welcomeMicros, long received, long duplicates, long lost,
                   long outOfOrder, long beyond, long otherEpoch, long resets, long dropped) {

    int notDone() {
        return clients - done;
    }
}
