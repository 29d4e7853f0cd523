package io.notify.client.support;

import io.notify.client.ClientEvent;
import io.notify.client.ConnectionState;
import io.notify.client.NotifyClientException;
import io.notify.client.NotifyListener;
import io.notify.devstack.Await;
import io.notify.protocol.frame.ResetReason;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** A listener that records everything it is told, with waits on what it recorded. */
public final class Recorder implements NotifyListener {

    public final List<ClientEvent> events = new CopyOnWriteArrayList<>();
    public final List<ConnectionState> states = new CopyOnWriteArrayList<>();
    public final List<NotifyClientException> errors = new CopyOnWriteArrayList<>();
    public final List<String> resets = new CopyOnWriteArrayList<>();
    /** "stream seq id" per recalled event told ({@code -}: no id, learnt while catching up). */
    public final List<String> recalls = new CopyOnWriteArrayList<>();
    private final List<String> callbackThreads = new CopyOnWriteArrayList<>();

    @Override
    public void onEvent(ClientEvent event) {
        callbackThreads.add(Thread.currentThread().getName());
        events.add(event);
    }

    @Override
    public void onReset(StreamId stream, ResetReason reason, Optional<Position> head) {
        resets.add(stream + " " + reason.wireName() + " " + head.map(Position::format).orElse("none"));
    }

    @Override
    public void onRecalled(StreamId stream, long seq, Optional<String> id) {
        recalls.add(stream + " " + seq + " " + id.orElse("-"));
    }

    @Override
    public void onState(ConnectionState state) {
        states.add(state);
    }

    @Override
    public void onError(NotifyClientException error) {
        errors.add(error);
    }

    public List<String> ids() {
        return events.stream().map(ClientEvent::id).toList();
    }

    public List<Long> seqs() {
        return events.stream().map(e -> e.position().orElseThrow().seq()).toList();
    }

    public List<String> epochs() {
        return events.stream().map(e -> e.position().orElseThrow().epoch()).distinct().toList();
    }

    /** The names of the threads listener callbacks ran on. */
    public List<String> threads() {
        return new ArrayList<>(new java.util.LinkedHashSet<>(callbackThreads));
    }

    public void awaitEvents(int n, Duration timeout) {
        Await.until(() -> n + " events, got " + events.size() + ": " + ids(), timeout, () -> events.size() >= n);
    }

    public void awaitState(ConnectionState state, int occurrences, Duration timeout) {
        Await.until(() -> occurrences + "× " + state + ", states " + states, timeout,
                () -> states.stream().filter(s -> s == state).count() >= occurrences);
    }
}
