package io.notify.push.webpush;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read as UTF-8 text, of which only the first {@code limit} bytes are kept (the
 * rest is read and dropped), so a push service's error page never costs more than that: the
 * sender only quotes it, clipped, as a reason.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<String> {

    private final CompletableFuture<String> result = new CompletableFuture<>();
    private final byte[] kept;
    private int size;

    private BoundedBody(int limit) {
        this.kept = new byte[limit];
    }

    static HttpResponse.BodyHandler<String> handler(int limit) {
        return info -> new BoundedBody(limit);
    }

    @Override
    public CompletionStage<String> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer buffer : buffers) {
            int take = Math.min(buffer.remaining(), kept.length - size);
            buffer.get(kept, size, take);
            size += take;
        }
    }

    @Override
    public void onError(Throwable error) {
        result.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        result.complete(new String(Arrays.copyOf(kept, size), StandardCharsets.UTF_8));
    }
}
