package io.notify.ingest.http;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.notify.common.http.Problem;
import io.notify.ingest.produce.Accepted;

/**
 * The answer for one event of a request: {@code 202} with where Kafka stored it, or a 4xx/5xx
 * status with a problem. A single-event request answers with exactly this body (minus index).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ItemResult(Integer index, int status, String id, String topic, Integer partition, Long offset,
                         Boolean duplicate, Problem problem) {

    public static ItemResult accepted(int index, Accepted a, boolean duplicate) {
        return new ItemResult(index, 202, a.id(), a.topic(), a.partition(), a.offset(), duplicate, null);
    }

    public static ItemResult failed(int index, String id, Problem problem) {
        return new ItemResult(index, problem.status(), id, null, null, null, null, problem);
    }

    @JsonIgnore
    public boolean isAccepted() {
        return status == 202;
    }

    ItemResult withoutIndex() {
        return new ItemResult(null, status, id, topic, partition, offset, duplicate, problem);
    }
}
