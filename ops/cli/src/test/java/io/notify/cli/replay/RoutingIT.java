package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.UndeliveredEvent;
import io.notify.protocol.stream.UndeliveredReason;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * --with-routing joins stream-log rows to the node topics and notify.undelivered by (stream, seq),
 * reading of each only the partition the stream's key is in.
 */
@ExtendWith(NotifyInfraExtension.class)
class RoutingIT {

    @Test
    void showsWhereEachEventOfTheUserWasRouted(Infra infra) throws Exception {
        TopicCatalog catalog = TopicCatalog.of(infra.prefix());
        String log = infra.createTopic(catalog.streamLog().name(), 3);
        String gw1 = infra.createTopic(catalog.node("gw-1").name(), 1);
        String gw2 = infra.createTopic(catalog.node("gw-2").name(), 1);
        String undelivered = infra.createTopic(catalog.undelivered().name(), 3);
        long t = Instant.now().minus(10, ChronoUnit.MINUTES).toEpochMilli();
        SequencedEvent s1 = Produce.sequenced("42", 1, "a", "order.shipped", t);
        SequencedEvent s2 = Produce.sequenced("42", 2, "b", "order.shipped", t);
        SequencedEvent s3 = Produce.sequenced("42", 3, "c", "order.shipped", t);
        SequencedEvent s4 = Produce.sequenced("42", 4, "d", "order.shipped", t);
        SequencedEvent other = Produce.sequenced("43", 1, "a", "order.shipped", t);
        byte[] m1 = NotifySerdes.deliveryMessage().serializer().serialize(gw1, DeliveryMessage.toAll(s1, t + 10));
        byte[] m2a = NotifySerdes.deliveryMessage().serializer().serialize(gw1, DeliveryMessage.toAll(s2, t + 20));
        byte[] m2b = NotifySerdes.deliveryMessage().serializer().serialize(gw2, DeliveryMessage.toAll(s2, t + 21));
        byte[] u3 = NotifySerdes.undeliveredEvent().serializer().serialize(undelivered,
                UndeliveredEvent.of(s3, UndeliveredReason.NO_LIVE_CONNECTION, t + 30));
        byte[] mo = NotifySerdes.deliveryMessage().serializer().serialize(gw1, DeliveryMessage.toAll(other, t + 11));
        Produce.all(infra, List.of(
                Produce.record(log, 1, t + 1, "u:42", Produce.json(s1)),
                Produce.record(log, 1, t + 2, "u:42", Produce.json(s2)),
                Produce.record(log, 1, t + 3, "u:42", Produce.json(s3)),
                Produce.record(log, 1, t + 4, "u:42", Produce.json(s4)),
                Produce.record(log, 2, t + 1, "u:43", Produce.json(other)),
                Produce.record(gw1, 0, t + 10, "u:42", m1),
                Produce.record(gw1, 0, t + 11, "u:43", mo),
                Produce.record(gw2, 0, t + 21, "u:42", m2b),
                Produce.record(gw1, 0, t + 20, "u:42", m2a),
                // the router writes keyed by stream: u:42 is in partition 2 of 3 (murmur2), the only one read;
                // a record of u:42 elsewhere (no writer puts it there) is not seen
                Produce.record(undelivered, 2, t + 30, "u:42", u3),
                Produce.record(undelivered, 0, t + 40, "u:42", NotifySerdes.undeliveredEvent().serializer().serialize(undelivered,
                        UndeliveredEvent.of(s4, UndeliveredReason.REGISTRY_UNAVAILABLE, t + 40)))));

        Cli.Result r = Cli.run("replay", "stream-log", "--user", "42", "--with-routing", "--format", "csv",
                "--bootstrap-servers", infra.bootstrapServers(), "--topic-prefix", infra.prefix());
        assertEquals(0, r.code(), r.err());
        List<String> routing = r.lines().stream().skip(1).map(l -> l.substring(l.lastIndexOf(',') + 1)).toList();
        assertEquals(List.of("node:gw-1", "node:gw-1;node:gw-2", "undelivered:no_live_connection", ""), routing);

        Cli.Result json = Cli.run("replay", "stream-log", "--user", "42", "--with-routing", "--id", "b",
                "--bootstrap-servers", infra.bootstrapServers(), "--topic-prefix", infra.prefix());
        assertEquals("gw-2", json.json().get(0).path("routing").path(1).path("node").asText(), json.out());
    }
}
