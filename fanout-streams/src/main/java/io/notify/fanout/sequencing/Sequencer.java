package io.notify.fanout.sequencing;

import io.notify.fanout.commit.CatchUpCommit;
import io.notify.fanout.inbox.InboxKey;
import io.notify.fanout.inbox.InboxLimits;
import io.notify.fanout.inbox.InboxRetention;
import io.notify.fanout.inbox.InboxStores;
import io.notify.fanout.inbox.StreamHead;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.fanout.prefs.PreferenceStores;
import io.notify.fanout.recipients.RecipientEvent;
import io.notify.protocol.event.Channel;
import io.notify.protocol.prefs.Channels;
import io.notify.protocol.prefs.QuietHours;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.trace.HopTrace;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Steps 4–5: gives each durable event the next position of its stream and appends it to the
 * stream's inbox; ephemeral events pass through as {@code LiveEvent}s untouched by either store.
 *
 * <p>Guarantees, per stream: the first durable event creates the history with a fresh random
 * epoch ({@link Position#newEpoch()}) at seq 1; each later one gets {@code lastSeq + 1} in the same
 * epoch. The head, the inbox entry and every record forwarded downstream belong to one task and
 * — under exactly_once_v2 — to one transaction with the stores' changelogs, so a crash or a
 * rebalance rolls all of them back together and the replay assigns the same seqs: no gap, no
 * reuse. A history is only re-created (new epoch) if its head is lost, which the epoch makes
 * visible to clients. Idle streams are trimmed by a wall-clock punctuator ({@link InboxRetention#sweep}).
 *
 * <p>A user's preferences (the {@value PreferenceStores#PREFERENCES} store, docs/inbox.md "Preferences")
 * apply here, to events sequenced after they changed, unless the event is critical: with the inbox
 * channel off a durable event goes out as an ephemeral one (live only, no position); with live off too,
 * or live off for an ephemeral event, it is dropped for this user; otherwise it is sequenced with the
 * channels turned off in {@code muted} (live: gateways do not send it; push: no fallback). Quiet hours
 * with {@code "live": false} mute live delivery of what is sequenced inside them.
 *
 * <p>A producer's recall ({@link RecipientEvent#isRecall()}) is applied here too, to what the stream's inbox
 * holds ({@link Recalls}).
 */
public final class Sequencer implements Processor<StreamId, RecipientEvent, StreamId, StreamEvent> {

    /** Settings of the inbox bounds and of the idle sweep. */
    public record InboxBounds(InboxLimits limits, Duration sweepInterval, int sweepStreams,
                              int sweepMaxDeletes) {
    }

    private static final List<Channel> LIVE = List.of(Channel.LIVE);
    private static final List<Channel> PUSH = List.of(Channel.PUSH);
    private static final List<Channel> LIVE_AND_PUSH = List.of(Channel.LIVE, Channel.PUSH);

    private final InboxBounds bounds;
    private final Clock clock;
    private final FanoutMetrics metrics;
    private ProcessorContext<StreamId, StreamEvent> context;
    private KeyValueStore<StreamId, StreamHead> heads;
    private KeyValueStore<InboxKey, SequencedEvent> inbox;
    private KeyValueStore<StreamId, UserPreferences> preferences;
    private InboxRetention retention;
    private Recalls recalls;

    public Sequencer(InboxBounds bounds, Clock clock, FanoutMetrics metrics) {
        this.bounds = bounds;
        this.clock = clock;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<StreamId, StreamEvent> context) {
        this.context = context;
        this.heads = context.getStateStore(InboxStores.HEADS);
        this.inbox = context.getStateStore(InboxStores.INBOX);
        this.preferences = context.getStateStore(PreferenceStores.PREFERENCES);
        this.recalls = new Recalls(heads, inbox);
        this.retention = new InboxRetention(heads, inbox, bounds.limits(), bounds.sweepStreams(),
                bounds.sweepMaxDeletes(), metrics);
        // Wall-clock, not stream-time: an idle stream's entries must age out even when no records arrive.
        context.schedule(bounds.sweepInterval(), PunctuationType.WALL_CLOCK_TIME, ts -> retention.sweep(clock.millis()));
    }

    @Override
    public void process(Record<StreamId, RecipientEvent> record) {
        // the first processor of a by-stream record (a local copy's source record was counted at intake)
        metrics.catchUpCommit(CatchUpCommit.processed(context));
        StreamId stream = record.key();
        RecipientEvent event = record.value();
        if (event.isRecall()) {
            List<StreamEvent> out = recalls.apply(stream, event, clock.millis());
            metrics.recall(out.isEmpty() ? "not_found" : "applied");
            for (StreamEvent e : out) {
                context.forward(record.withValue(e));
            }
            return;
        }
        Channels channels = channels(stream, event);
        if (!event.isDurable() || !channels.inboxOn()) {
            if (!channels.liveOn()) {
                metrics.muted(event.isDurable() ? "all" : Channel.LIVE.wireName());
                return;
            }
            if (event.isDurable()) {
                metrics.muted(Channel.INBOX.wireName()); // live only: not kept, so no position, no resume, no fallback
            }
            context.forward(record.withValue(event.live(stream))
                    .withHeaders(HopTrace.stamped(record.headers(), HopTrace.SEQUENCE, HopTrace.nowMicros(clock))));
            return;
        }
        long now = clock.millis();
        StreamHead previous = heads.get(stream);
        StreamHead head = previous == null ? StreamHead.first(Position.newEpoch()) : previous.next();
        SequencedEvent sequenced = event.sequenced(stream, head.position(), now, muted(channels, event));
        inbox.put(new InboxKey(stream, head.lastSeq()), sequenced);
        heads.put(stream, retention.trim(stream, head, now));
        metrics.sequenced();
        context.forward(record.withValue(sequenced)
                .withHeaders(HopTrace.stamped(record.headers(), HopTrace.SEQUENCE, HopTrace.nowMicros(clock))));
    }

    /** The channels the user's preferences leave on for this event: all of them for rooms, broadcast and critical events. */
    private Channels channels(StreamId stream, RecipientEvent event) {
        if (!stream.isUser() || event.critical()) {
            return Channels.ON;
        }
        UserPreferences prefs = preferences.get(stream);
        if (prefs == null) {
            return Channels.ON;
        }
        Channels channels = prefs.preferences().channelsFor(event.type(), event.category());
        QuietHours quiet = prefs.preferences().quietHours();
        if (quiet != null && quiet.mutesLive() && channels.liveOn() && quiet.endOf(Instant.ofEpochMilli(clock.millis())) != null) {
            return new Channels(false, channels.inbox(), channels.push()); // the user's quiet hours, with live delivery off
        }
        return channels;
    }

    private List<Channel> muted(Channels channels, RecipientEvent event) {
        boolean live = !channels.liveOn();
        boolean push = !channels.pushOn() && event.fallback() != null;
        if (live) {
            metrics.muted(Channel.LIVE.wireName());
        }
        if (push) {
            metrics.muted(Channel.PUSH.wireName());
        }
        return live && push ? LIVE_AND_PUSH : live ? LIVE : push ? PUSH : List.of();
    }
}
