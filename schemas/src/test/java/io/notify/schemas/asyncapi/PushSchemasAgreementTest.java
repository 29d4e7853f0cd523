package io.notify.schemas.asyncapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.networknt.schema.Schema;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.schemas.serde.NotifySerdes;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** docs/asyncapi.yaml's push channels (docs/push.md) and the push records agree on what is valid, case by case. */
class PushSchemasAgreementTest {

    private final AsyncApiDocument doc = AsyncApiDocument.load();

    /**
     * The push change schema accepts exactly what {@link NotifySerdes#pushChange()} reads, case by case (where a
     * schema can say it: that a register's id is its registration's is the record's check alone); a fallback
     * record of another channel carries no registrations; an outcome names its registration unless there was none.
     */
    @Test
    void thePushSchemasAcceptWhatThePushRecordsAccept() {
        Schema change = doc.schema(doc.payloadRef("pushChanges"));
        byte[] point = new byte[65];
        point[0] = 4;
        point[64] = -1;
        String p256dh = TopicSamples.base64Url(point);
        String auth = TopicSamples.base64Url(new byte[16]);
        String keys = "'keys':{'p256dh':'" + p256dh + "','auth':'" + auth + "'}";
        String id = TopicSamples.WEB_PUSH.id();
        String apns = "'apns':{'token':'" + "a".repeat(64) + "','topic':'com.x','environment':'sandbox'}";
        Map<String, Boolean> registrations = new LinkedHashMap<>();
        registrations.put("'webpush':{'endpoint':'https://push.example/a@b?x=1'," + keys + "}", true);
        registrations.put("'webpush':{'endpoint':'HTTP://push.example','expirationTime':null,'keys':{'p256dh':'" + p256dh
                + "=','auth':'" + auth + "=='}}", true);
        registrations.put("'webpush':{'endpoint':'https://user@push.example/a'," + keys + "}", false);
        registrations.put("'webpush':{'endpoint':'https://push.example/a#f'," + keys + "}", false);
        registrations.put("'webpush':{'endpoint':'ftp://push.example/a'," + keys + "}", false);
        registrations.put("'webpush':{'endpoint':'https://push.example/" + "a".repeat(2048) + "'," + keys + "}", false);
        registrations.put("'webpush':{'endpoint':'https://push.example','keys':{'p256dh':'" + p256dh.substring(1) + "','auth':'"
                + auth + "'}}", false);
        registrations.put("'webpush':{'endpoint':'https://push.example','keys':{'p256dh':'C" + p256dh.substring(1) + "','auth':'"
                + auth + "'}}", false);
        registrations.put("'webpush':{'endpoint':'https://push.example','keys':{'p256dh':'" + p256dh + "','auth':'" + auth + "A'}}",
                false);
        registrations.put("'webpush':{'endpoint':'https://push.example','keys':{'p256dh':'" + p256dh + "'}}", false);
        registrations.put("'fcm':{'token':'t:1'}", true);
        registrations.put("'fcm':{'token':'t/1'}", false);
        registrations.put(apns, true);
        registrations.put(apns.replace("sandbox", "staging"), false);
        registrations.put(apns.replace("com.x", ".com.x"), false);
        registrations.put("'fcm':{'token':'t:1'}," + apns, false);
        Map<String, Boolean> cases = new LinkedHashMap<>();
        registrations.forEach((r, ok) -> cases.put(
                "{'stream':'u:42','kind':'register','id':'" + id + "','registration':{'id':'" + id + "'," + r + ",'createdAt':1},'at':2}", ok));
        String fcm = "{'id':'" + id + "','fcm':{'token':'t:1'},'createdAt':1}";
        cases.put("{'stream':'u:42','kind':'register','id':'pr_short','registration':{'id':'pr_short','fcm':{'token':'t'},'createdAt':1},"
                + "'at':2}", false);
        cases.put("{'stream':'u:42','kind':'register','id':'" + id + "','at':2}", false);
        cases.put("{'stream':'u:42','kind':'unregister','id':'" + id + "','at':2}", true);
        cases.put("{'stream':'u:42','kind':'gone','id':'" + id + "','reason':'Unregistered','at':2}", true);
        cases.put("{'stream':'u:42','kind':'gone','at':2}", false);
        cases.put("{'stream':'u:42','kind':'unregister','id':'" + id + "','registration':" + fcm + ",'at':2}", false);
        cases.put("{'stream':'r:chat-1','kind':'unregister','id':'" + id + "','at':2}", false);
        cases.put("{'stream':'u:42','kind':'expired','id':'" + id + "','at':2}", false);
        cases.put("{'stream':'u:42','kind':'unregister','id':'" + id + "','at':-1}", false);
        cases.forEach((quoted, ok) -> {
            String json = quoted.replace('\'', '"');
            assertEquals(ok, change.validate(AsyncApiDocument.json(json)).isEmpty(), "schema: " + json);
            assertEquals(ok, readsPushChange(json), "PushChange: " + json);
        });

        Schema fallback = doc.schema(doc.payloadRef("fallback"));
        SequencedEvent mailed = new SequencedEvent(TopicSamples.U42, TopicSamples.EPOCH, 3, "e-1", "a", null, null, null, 1, 2,
                new Fallback("1m", "mail"), null);
        String record = new String(NotifySerdes.fallbackRecord().serializer().serialize("t", new FallbackRecord(
                TopicSamples.U42.value(), "42", "mail", FallbackRecord.Reason.NO_DEVICE, mailed, List.of(), 1, 2)), StandardCharsets.UTF_8);
        String withPush = record.substring(0, record.length() - 1) + ",\"push\":[" + fcm.replace('\'', '"') + "]}";
        assertEquals(List.of(), fallback.validate(AsyncApiDocument.json(record)), record);
        assertFalse(fallback.validate(AsyncApiDocument.json(withPush)).isEmpty(), "only a record of channel push carries registrations: " + withPush);
        assertThrows(SerializationException.class,
                () -> NotifySerdes.fallbackRecord().deserializer().deserialize("t", withPush.getBytes(StandardCharsets.UTF_8)));

        Schema outcome = doc.schema(doc.payloadRef("pushOutcomes"));
        String sent = "{'stream':'u:42','eventId':'e-1','seq':3,'outcome':'sent','attempt':1,'status':201,'at':1}".replace('\'', '"');
        assertFalse(outcome.validate(AsyncApiDocument.json(sent)).isEmpty(), "an attempt names its registration and provider: " + sent);
        String none = ("{'stream':'u:42','eventId':'e-1','seq':3,'registration':'" + id
                + "','provider':'webpush','outcome':'no_registration','attempt':0,'status':0,'at':1}").replace('\'', '"');
        assertFalse(outcome.validate(AsyncApiDocument.json(none)).isEmpty(), "no_registration names none: " + none);
    }

    private static boolean readsPushChange(String json) {
        try {
            return NotifySerdes.pushChange().deserializer().deserialize("t", json.getBytes(StandardCharsets.UTF_8)) != null;
        } catch (SerializationException e) {
            return false;
        }
    }
}
