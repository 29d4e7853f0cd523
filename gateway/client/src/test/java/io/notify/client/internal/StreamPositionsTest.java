package io.notify.client.internal;

import static io.notify.client.internal.StreamPositions.Verdict.DELIVER;
import static io.notify.client.internal.StreamPositions.Verdict.DUPLICATE;
import static io.notify.client.internal.StreamPositions.Verdict.GAP;
import static io.notify.client.internal.StreamPositions.Verdict.OTHER_EPOCH;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.notify.client.store.InMemoryPositionStore;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StreamPositionsTest {

    private static final StreamId U42 = StreamId.forUser("42");
    private static final StreamId U7 = StreamId.forUser("7");

    private final InMemoryPositionStore store = new InMemoryPositionStore();
    private final StreamPositions positions = new StreamPositions(store);

    @Test
    void aStreamWithoutPositionTakesItsFirstEventAsItsStartThenOnlyTheNextSeq() {
        assertEquals(DELIVER, positions.check(U42, Position.of("e1", 17)));
        positions.delivered(U42, Position.of("e1", 17));
        assertEquals(DUPLICATE, positions.check(U42, Position.of("e1", 17)));
        assertEquals(DUPLICATE, positions.check(U42, Position.of("e1", 3)), "an old position is a duplicate");
        assertEquals(DELIVER, positions.check(U42, Position.of("e1", 18)));
        assertEquals(GAP, positions.check(U42, Position.of("e1", 20)));
        assertEquals(Optional.of(Position.of("e1", 17)), store.load(U42), "delivered writes through to the store");
    }

    @Test
    void aRangeContinuesTheStreamWhenTheNextSeqIsInIt() {
        positions.delivered(U42, Position.of("e1", 5));
        assertEquals(DELIVER, positions.check(U42, "e1", 6, 9), "the next seq starts it");
        assertEquals(DELIVER, positions.check(U42, "e1", 3, 9), "overlapping what was delivered: its new part");
        assertEquals(DUPLICATE, positions.check(U42, "e1", 2, 5), "all at or below the position");
        assertEquals(GAP, positions.check(U42, "e1", 7, 9), "seq 6 is missing");
        assertEquals(OTHER_EPOCH, positions.check(U42, "e2", 6, 9));
        assertEquals(DELIVER, positions.check(U7, "e1", 4, 9), "no position: the start");
    }

    @Test
    void streamsAreIndependent() {
        positions.delivered(U42, Position.of("e1", 5));
        assertEquals(DELIVER, positions.check(U7, Position.of("e1", 1)));
        assertEquals(DUPLICATE, positions.check(U42, Position.of("e1", 5)));
    }

    @Test
    void aReplayedRunOverlappingLiveDeliveryIsDeliveredExactlyOnceInOrder() {
        positions.delivered(U42, Position.of("ep", 10));
        long[] arriving = {11, 12, 11, 12, 13, 10, 13, 14, 14, 15};
        StringBuilder delivered = new StringBuilder();
        for (long seq : arriving) {
            Position p = Position.of("ep", seq);
            if (positions.check(U42, p) == DELIVER) {
                positions.delivered(U42, p);
                delivered.append(seq).append(' ');
            }
        }
        assertEquals("11 12 13 14 15 ", delivered.toString());
    }

    @Test
    void anotherEpochIsNeverComparedOrDeliveredUntilAResetAdoptsIt() {
        positions.delivered(U42, Position.of("old", 40));
        assertEquals(OTHER_EPOCH, positions.check(U42, Position.of("new", 41)));
        assertEquals(OTHER_EPOCH, positions.check(U42, Position.of("new", 1)), "seqs of different epochs never compare");

        positions.adopt(U42, Optional.of(Position.of("new", 3))); // reset epoch_mismatch, head new:3
        assertEquals(Optional.of(Position.of("new", 3)), store.load(U42));
        assertEquals(DUPLICATE, positions.check(U42, Position.of("new", 3)));
        assertEquals(OTHER_EPOCH, positions.check(U42, Position.of("old", 41)), "late events of the old history are dropped");
        assertEquals(DELIVER, positions.check(U42, Position.of("new", 4)));
    }

    @Test
    void anUnknownStreamResetForgetsThePositionSoTheNextEventStartsAfresh() {
        positions.delivered(U42, Position.of("old", 40));
        positions.adopt(U42, Optional.empty());
        assertEquals(Optional.empty(), store.load(U42));
        assertEquals(DELIVER, positions.check(U42, Position.of("fresh", 1)));
    }

    @Test
    void positionsComeFromTheStoreSoARestartedClientDropsWhatItAlreadyProcessed() {
        store.save(U42, Position.of("ep", 99));
        StreamPositions restarted = new StreamPositions(store);
        assertEquals(DUPLICATE, restarted.check(U42, Position.of("ep", 99)));
        assertEquals(DELIVER, restarted.check(U42, Position.of("ep", 100)));
    }
}
