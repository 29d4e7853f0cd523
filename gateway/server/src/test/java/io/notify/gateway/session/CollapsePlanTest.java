package io.notify.gateway.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.gateway.config.CollapseSettings;
import io.notify.gateway.support.Events;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The pure planning of collapsed catch-up: a fetched page and the collapsing types → events and collapsed runs. */
class CollapsePlanTest {

    private static final StreamId U = StreamId.forUser("42");
    private static final String E = "ep1";
    private static final Predicate<String> STATUS = new CollapseSettings(List.of("order.status", "*.progress"))::collapses;

    private static SequencedEvent ev(long seq, String type, String key) {
        return Events.keyed(U, E, seq, type, key);
    }

    /** The plan as the client sees it: "e<seq>" for an event, "c<from>..<to>" for a collapsed frame. */
    private static List<String> shown(CollapsePlan plan) {
        return plan.entries().stream().map(e -> e instanceof CollapsePlan.Send s ? "e" + s.event().seq()
                : "c" + ((CollapsePlan.Skip) e).frame().from() + ".." + ((CollapsePlan.Skip) e).frame().to()).toList();
    }

    @Test
    void supersededEventsBecomeCollapsedRunsInTheirSeqsPlace() {
        List<SequencedEvent> page = List.of(ev(1, "order.created", null), ev(2, "order.status", "order-17"),
                ev(3, "order.status", "order-18"), ev(4, "order.status", "order-17"), ev(5, "order.status", "order-17"),
                ev(6, "order.status", "order-17"));
        CollapsePlan plan = CollapsePlan.of(page, STATUS);
        assertEquals(List.of("e1", "c2..2", "e3", "c4..5", "e6"), shown(plan));
        assertEquals(3, plan.collapsed());
        CollapsedFrame run = ((CollapsePlan.Skip) plan.entries().get(3)).frame();
        assertEquals(new CollapsedFrame(U, E, 4, 5), run);
    }

    @Test
    void aKeyWhoseLastEventIsInThePageKeepsOnlyThatOne() {
        List<SequencedEvent> page = new ArrayList<>();
        for (long seq = 10; seq <= 14; seq++) {
            page.add(ev(seq, "upload.progress", "file-3"));
        }
        CollapsePlan plan = CollapsePlan.of(page, STATUS);
        assertEquals(List.of("c10..13", "e14"), shown(plan), "consecutive left-out seqs are one frame");
        assertEquals(4, plan.collapsed());
    }

    @Test
    void aRecalledEventIsNeitherLeftOutNorSupersedesAnother() {
        List<SequencedEvent> page = List.of(ev(1, "order.status", "order-17"), ev(2, "order.status", "order-17").asRecalled(),
                ev(3, "order.status", "order-17"), ev(4, "order.status", "order-17").asRecalled());
        CollapsePlan plan = CollapsePlan.of(page, STATUS);
        assertEquals(List.of("c1..1", "e2", "e3", "e4"), shown(plan),
                "3 is the latest the producer stands by; the recalled ones go as their positions (OutboundFrame)");
        assertEquals(1, plan.collapsed());
    }

    @Test
    void typesThatDoNotCollapseAndEventsWithoutAKeyAreUntouched() {
        assertNull(CollapsePlan.of(List.of(ev(1, "chat.message", "room-1"), ev(2, "chat.message", "room-1")), STATUS),
                "a type no pattern matches");
        assertNull(CollapsePlan.of(List.of(ev(1, "order.status", null), ev(2, "order.status", null)), STATUS),
                "no collapse key");
        assertNull(CollapsePlan.of(List.of(ev(1, "order.status", "a"), ev(2, "order.status", "b")), STATUS),
                "every key's last event");
        assertNull(CollapsePlan.of(List.of(ev(1, "order.status", "a"), ev(2, "order.status", "a")), t -> false),
                "off: no type collapses");
        assertNull(CollapsePlan.of(List.of(), STATUS));
        assertNull(CollapsePlan.of(List.of(ev(1, "order.status", "a")), STATUS));
    }

    @Test
    void onlyALaterEventOfTheSameTypeAndKeySupersedes() {
        // the same key under another type is another value (the status is not superseded by a progress)
        assertNull(CollapsePlan.of(List.of(ev(1, "order.status", "order-17"), ev(2, "order.progress", "order-17")), STATUS));
        // nor by an event of a type that does not collapse
        assertNull(CollapsePlan.of(List.of(ev(1, "order.status", "order-17"), ev(2, "order.note", "order-17")), STATUS));
        // an event between two of a key is sent where it is: it splits the run
        CollapsePlan plan = CollapsePlan.of(List.of(ev(1, "order.status", "k"), ev(2, "order.note", "k"),
                ev(3, "order.status", "k"), ev(4, "order.status", "k")), STATUS);
        assertEquals(List.of("c1..1", "e2", "c3..3", "e4"), shown(plan));
    }

    @Test
    void everySeqIsInExactlyOneEntryInOrderAndOnlySupersededOnesAreLeftOut() {
        Random random = new Random(16);
        String[] types = {"order.status", "upload.progress", "order.note"};
        for (int round = 0; round < 500; round++) {
            List<SequencedEvent> page = new ArrayList<>();
            int n = 1 + random.nextInt(40);
            for (long seq = 100; seq < 100 + n; seq++) {
                page.add(ev(seq, types[random.nextInt(types.length)], random.nextInt(4) == 0 ? null : "k" + random.nextInt(3)));
            }
            CollapsePlan plan = CollapsePlan.of(page, STATUS);
            List<Long> covered = new ArrayList<>();
            int left = 0;
            for (CollapsePlan.Entry entry : plan == null ? page.stream().<CollapsePlan.Entry>map(CollapsePlan.Send::new).toList()
                    : plan.entries()) {
                if (entry instanceof CollapsePlan.Send s) {
                    covered.add(s.event().seq());
                    assertFalse(supersededWithin(page, s.event()), "a sent event has no later one of its type and key: " + page);
                } else {
                    CollapsedFrame f = ((CollapsePlan.Skip) entry).frame();
                    for (long seq = f.from(); seq <= f.to(); seq++) {
                        covered.add(seq);
                        assertTrue(supersededWithin(page, page.get((int) (seq - 100))), "only superseded events are left out");
                    }
                    left += (int) f.count();
                }
            }
            assertEquals(page.stream().map(SequencedEvent::seq).toList(), covered, "every seq once, in order");
            assertEquals(plan == null ? 0 : plan.collapsed(), left);
            for (int i = 1; plan != null && i < plan.entries().size(); i++) {
                assertFalse(plan.entries().get(i) instanceof CollapsePlan.Skip && plan.entries().get(i - 1) instanceof CollapsePlan.Skip,
                        "consecutive left-out seqs are merged into one frame");
            }
        }
    }

    private static boolean supersededWithin(List<SequencedEvent> page, SequencedEvent e) {
        return e.collapseKey() != null && STATUS.test(e.type()) && page.stream().anyMatch(later -> later.seq() > e.seq()
                && later.type().equals(e.type()) && e.collapseKey().equals(later.collapseKey()));
    }
}
