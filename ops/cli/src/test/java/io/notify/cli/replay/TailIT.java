package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.Notifyctl;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.schemas.event.EventClass;
import io.notify.schemas.topic.TopicCatalog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
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

    @Test
    void printsARecordProducedAfterItStartedThenStopsWhenAsked(Infra infra) throws Exception {
        String events = infra.createTopic(TopicCatalog.of(infra.prefix()).events().name(), 3);
        long now = System.currentTimeMillis();
        Produce.all(infra, List.of(Produce.record(events, 0, now, "old", Produce.envelope("old", "order.shipped",
                EventClass.DURABLE, null, "42"))));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        PrintStream original = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        AtomicInteger code = new AtomicInteger(-1);
        Thread tail = new Thread(() -> {
            CommandLine cmd = new CommandLine(new Notifyctl());
            cmd.setErr(new PrintWriter(err, true));
            code.set(cmd.execute("tail", "events", "--type", "order.*", "--bootstrap-servers", infra.bootstrapServers(),
                    "--topic-prefix", infra.prefix()));
        }, "tail-under-test");
        try {
            tail.start();
            await("tail to position itself", () -> err.toString().contains("tail: following " + events));
            Produce.all(infra, List.of(
                    Produce.record(events, 1, now + 1, "skip", Produce.envelope("skip", "chat.typing", EventClass.EPHEMERAL, null, "42")),
                    Produce.record(events, 2, now + 2, "new", Produce.envelope("new", "order.shipped", EventClass.DURABLE, null, "42"))));
            await("the new record on stdout", () -> out.toString(StandardCharsets.UTF_8).contains("\"id\":\"new\""));
            tail.interrupt();
            tail.join(10_000);
        } finally {
            System.setOut(original);
        }
        assertTrue(!tail.isAlive(), "tail stopped");
        assertEquals(0, code.get(), err.toString());
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(1, lines.size(), "only the new matching record: " + lines);
        assertTrue(err.toString().contains("tail: 1 records written"), err.toString());
    }
}
