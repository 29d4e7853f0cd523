package io.notify.client;

import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A device of the user marked events of the user's inbox seen, read or archived, and this is the
 * inbox's state after it (a {@code state} frame, docs/protocol.md), as {@link InboxListener#onState}
 * receives it.
 *
 * @param head           {@code unread} and {@code unseen} count the inbox's events up to this seq of {@code epoch}
 * @param version        the read state's version; the client passes on no change older than one it applied
 * @param kind           {@code SEEN}, {@code READ} or {@code ARCHIVE}
 * @param upTo           the change covers every seq up to this one, or
 * @param seqs           exactly these seqs (empty with {@code upTo})
 * @param device         the device that made the change, when it named one
 * @param fromThisDevice true when {@code device} is this client's ({@link NotifyClient#device()})
 */
public record InboxChange(StreamId stream, String epoch, long head, long unread, long unseen, long version,
                          ReceiptKind kind, OptionalLong upTo, List<Long> seqs, Optional<String> device,
                          boolean fromThisDevice) {

    public InboxChange {
        seqs = List.copyOf(seqs);
    }

    /** The change a state frame tells a client whose device id is {@code ownDevice}. */
    public static InboxChange of(StateFrame f, String ownDevice) {
        return new InboxChange(f.stream(), f.epoch(), f.head(), f.unread(), f.unseen(), f.version(), f.kind(),
                f.upTo() == null ? OptionalLong.empty() : OptionalLong.of(f.upTo()), f.seqs() == null ? List.of() : f.seqs(),
                Optional.ofNullable(f.device()), f.isFrom(ownDevice));
    }

    /** The counts after the change, up to {@code head}. */
    public InboxCounts counts() {
        return new InboxCounts(unread, unseen, version, head == 0 ? Optional.empty() : Optional.of(Position.of(epoch, head)));
    }
}
