package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.Notifyctl;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.TopicCatalog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/** tail follows live records from the end and stops cleanly when asked (a thread interrupt, as Ctrl-C does via wakeup). */
@ExtendWith(NotifyInfraExtension.class)
class TailIT {

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20); // polling a condition with a deadline, not a fixed sleep
        }
    }

    /** What one run of tail printed and returned. */
    private record Run(int code, List<String> lines, String err) {
    }

    /**
     * Starts tail on {@code topic} with {@code args}, produces {@code live} once it follows, waits
     * until stdout holds {@code awaited}, then stops it as Ctrl-C does.
     */
    private static Run tail(Infra infra, String topic, List<ProducerRecord<byte[], byte[]>> live, String awaited,
                            String... args) throws Exception {
        String[] all = Cli.against(infra, args);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        PrintStream original = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        AtomicInteger code = new AtomicInteger(-1);
        Thread tail = new Thread(() -> {
            CommandLine cmd = new CommandLine(new Notifyctl());
            cmd.setErr(new PrintWriter(err, true));
            code.set(cmd.execute(all));
        }, "tail-under-test");
        try {
            tail.start();
            await("tail to position itself", () -> err.toString().contains("tail: following " + topic));
            Produce.all(infra, live);
            await("the new record on stdout", () -> out.toString(StandardCharsets.UTF_8).contains(awaited));
            tail.interrupt();
            tail.join(10_000);
        } finally {
            System.setOut(original);
        }
        assertTrue(!tail.isAlive(), "tail stopped");
        return new Run(code.get(), out.toString(StandardCharsets.UTF_8).lines().toList(), err.toString());
    }

    @Test
    void printsARecordProducedAfterItStartedThenStopsWhenAsked(Infra infra) throws Exception {
        String events = infra.createTopic(TopicCatalog.of(infra.prefix()).events().name(), 3);
        long now = System.currentTimeMillis();
        Produce.all(infra, List.of(Produce.record(events, 0, now, "old", Produce.envelope("old", "order.shipped",
                EventClass.DURABLE, null, "42"))));
        Run r = tail(infra, events, List.of(
                        Produce.record(events, 1, now + 1, "skip", Produce.envelope("skip", "chat.typing", EventClass.EPHEMERAL, null, "42")),
                        Produce.record(events, 2, now + 2, "new", Produce.envelope("new", "order.shipped", EventClass.DURABLE, null, "42"))),
                "\"id\":\"new\"", "tail", "events", "--type", "order.*");
        assertEquals(0, r.code(), r.err());
        assertEquals(1, r.lines().size(), "only the new matching record: " + r.lines());
        assertTrue(r.err().contains("tail: 1 records written"), r.err());
    }

    @Test
    void followsTheReceiptsOfOneUser(Infra infra) throws Exception {
        String receipts = infra.createTopic(TopicCatalog.of(infra.prefix()).receipts().name(), 3);
        long now = System.currentTimeMillis();
        StreamId u42 = StreamId.forUser("42");
        Produce.all(infra, List.of(Produce.record(receipts, 0, now, "u:42", Produce.json(Receipt.ack(u42, "ep1", 1, "phone-1", now)))));
        // same partition, so the other user's receipt is read (and dropped) before the awaited one
        Run r = tail(infra, receipts, List.of(
                        Produce.record(receipts, 1, now + 1, "u:43", Produce.json(Receipt.ack(StreamId.forUser("43"), "ep1", 4, "tab", now))),
                        Produce.record(receipts, 1, now + 2, "u:42",
                                Produce.json(Receipt.markUpTo(u42, ReceiptKind.READ, "ep1", 7, "phone-1", now + 2)))),
                ",u:42,read,", "tail", "receipts", "--user", "42", "--format", "csv");
        assertEquals(0, r.code(), r.err());
        assertEquals(2, r.lines().size(), "the header and the new receipt of user 42: " + r.lines());
        assertEquals("timestamp,partition,offset,stream,kind,epoch,upTo,ids,device,at", r.lines().get(0));
        assertTrue(r.lines().get(1).contains(",1,1,u:42,read,ep1,7,,phone-1,"), r.lines().get(1));
        assertTrue(r.err().contains("tail: 1 records written (2 read)"), r.err());
    }

    @Test
    void followsTheFallbackRecordsOfOneUser(Infra infra) throws Exception {
        String fallback = infra.createTopic(TopicCatalog.of(infra.prefix()).fallback().name(), 3);
        long now = System.currentTimeMillis();
        Run r = tail(infra, fallback, List.of(
                        Produce.record(fallback, 1, now, "u:43", Produce.json(Produce.fallback(Produce.withFallback("43", 1, "o-1", now), 5))),
                        Produce.record(fallback, 1, now + 1, "u:42", Produce.json(Produce.fallback(Produce.withFallback("42", 3, "o-3", now), 8)))),
                ",u:42,push,", "tail", "fallback", "--user", "42", "--format", "csv");
        assertEquals(0, r.code(), r.err());
        assertEquals(2, r.lines().size(), "the header and the fallback of user 42: " + r.lines());
        assertTrue(r.lines().get(1).contains(",1,1,u:42,push,no_ack,o-3,order.shipped,ep1,3,phone-1:1,"), r.lines().get(1));
        assertTrue(r.lines().get(1).endsWith(",8"), "lateness in ms: " + r.lines().get(1));
    }

    @Test
    void followsThePushOutcomesOfOneEvent(Infra infra) throws Exception {
        String outcomes = infra.createTopic(TopicCatalog.of(infra.prefix()).pushOutcomes().name(), 3);
        long now = System.currentTimeMillis();
        StreamId u42 = StreamId.forUser("42");
        Run r = tail(infra, outcomes, List.of(
                        Produce.record(outcomes, 1, now, "u:42", Produce.json(new PushOutcome(u42, "o-1", 1, null, null,
                                PushOutcome.Outcome.NO_REGISTRATION, 0, 0, null, null, now))),
                        Produce.record(outcomes, 1, now + 1, "u:42", Produce.json(new PushOutcome(u42, "o-3", 3,
                                Produce.fcm("phone", now).id(), "fcm", PushOutcome.Outcome.GIVEN_UP, 5, 503, "UNAVAILABLE", null, now)))),
                ",given_up,", "tail", "push-outcomes", "--user", "42", "--id", "o-3", "--format", "csv");
        assertEquals(0, r.code(), r.err());
        assertEquals(2, r.lines().size(), "the header and the outcome of o-3: " + r.lines());
        assertTrue(r.lines().get(1).contains(",1,1,u:42,o-3,3," + Produce.fcm("phone", now).id() + ",fcm,given_up,5,503,UNAVAILABLE,,"),
                r.lines().get(1));
    }
}
