package io.notify.gateway.resume;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Where missed durable events come from: the fanout-streams inbox (docs/query-api.md). Used for
 * resume and for filling live gaps. Implementations never block the caller, complete every stage
 * within their own timeout, and report failures as {@link FetchResult.Failed} rather than
 * exceptionally.
 */
public interface ResumeSource extends AutoCloseable {

    CompletionStage<FetchResult> fetch(FetchRequest request);

    /** Several streams at once (reconnect storms); results in request order. */
    CompletionStage<List<FetchResult>> fetchAll(List<FetchRequest> requests);

    @Override
    default void close() {
    }
}
