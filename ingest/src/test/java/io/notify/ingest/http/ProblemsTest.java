package io.notify.ingest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.http.Problem;
import io.notify.ingest.produce.WriteFailedException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** A failed Kafka write is answered the same way for an event and for a recall (both handlers call Problems.ofWriteFailure). */
class ProblemsTest {

    private static String slug(Problem p) {
        return p.type().substring(p.type().lastIndexOf(':') + 1);
    }

    @Test
    void eachKindOfWriteFailureHasItsOwnAnswer_unwrappedFromTheFuture() {
        Problem overloaded = Problems.ofWriteFailure(new CompletionException(
                new WriteFailedException(WriteFailedException.Kind.OVERLOADED, "buffer full", null)));
        assertEquals("overloaded", slug(overloaded), "not 'unavailable': the recall handler said so before");
        assertEquals(503, overloaded.status());
        assertEquals("unavailable", slug(Problems.ofWriteFailure(
                new WriteFailedException(WriteFailedException.Kind.UNAVAILABLE, "no broker", null))));
        Problem refused = Problems.ofWriteFailure(new WriteFailedException(WriteFailedException.Kind.REJECTED, "record too large", null));
        assertEquals(Problems.writeFailed("x").type(), refused.type());
        assertTrue(refused.detail().contains("record too large"), refused.detail());
        assertTrue(Problems.ofWriteFailure(new IllegalStateException("boom")).detail().contains("boom"));
    }
}
