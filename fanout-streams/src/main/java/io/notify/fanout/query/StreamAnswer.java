package io.notify.fanout.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import java.util.List;

/**
 * One stream's answer of the query API (docs/query-api.md): its head and the events asked for,
 * or a reset saying why the client's position cannot be continued, or (in a batch) an error.
 * Exactly one of {events, reset, error} shapes is used; absent parts are omitted from the JSON.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"stream", "head", "firstSeq", "events", "more", "reset", "error"})
public record StreamAnswer(String stream, Position head, Long firstSeq, List<SequencedEvent> events, Boolean more,
                           Reset reset, Error error) {

    /** Why a position cannot be continued; {@code head}/{@code firstSeq} absent for unknown_stream. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Reset(String reason, Position head, Long firstSeq) {
    }

    /** A batch entry that could not be answered (e.g. its owner is rebalancing). */
    public record Error(int status, String detail) {
    }

    public static StreamAnswer events(String stream, Position head, long firstSeq, List<SequencedEvent> events,
                                      boolean more) {
        return new StreamAnswer(stream, head, firstSeq, List.copyOf(events), more, null, null);
    }

    public static StreamAnswer reset(String stream, String reason, Position head, Long firstSeq) {
        return new StreamAnswer(stream, null, null, null, null, new Reset(reason, head, firstSeq), null);
    }

    public static StreamAnswer error(String stream, int status, String detail) {
        return new StreamAnswer(stream, null, null, null, null, null, new Error(status, detail));
    }

    /** The head-only answer of {@code GET /v1/streams/{stream}}; {@code head == null} for a stream without history. */
    public static StreamAnswer head(String stream, Position head, Long firstSeq) {
        return new StreamAnswer(stream, head, firstSeq, null, null, null, null);
    }
}
