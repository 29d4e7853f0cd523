package io.notify.push.apns;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.provider.PushMessage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * One APNs request ({@code POST /3/device/<token>}) for one {@link PushMessage}:
 *
 * <ul>
 *   <li>{@code apns-push-type} {@code alert} with an alert, else {@code background};
 *       {@code apns-priority} 10 for a HIGH alert, else 5 (APNs takes only 5 for background);</li>
 *   <li>{@code apns-expiration} now + ttl in epoch seconds, 0 for a ttl of 0 (now or never);
 *       {@code apns-collapse-id} the collapse id; {@code apns-topic} the registration's topic;</li>
 *   <li>{@code apns-id} a name-based UUID of the event and the registration, so a retry of one push
 *       carries the same id;</li>
 *   <li>the body {@code {"aps":{"alert":{title,body},"thread-id":stream}}} or
 *       {@code {"aps":{"content-available":1}}}, with the event's payload as {@code event} (JSON, not
 *       a string) and its id as {@code id}.</li>
 * </ul>
 */
final class ApnsRequest {

    private ApnsRequest() {
    }

    /** The apns-id of one (event, registration): the same for every attempt. */
    static String apnsId(String eventId, String registrationId) {
        return UUID.nameUUIDFromBytes((eventId + "\n" + registrationId).getBytes(StandardCharsets.UTF_8)).toString();
    }

    /**
     * The JSON body.
     *
     * @throws IllegalArgumentException when the payload is not JSON (then it cannot be the {@code event} value)
     */
    static byte[] body(PushMessage m) {
        JsonNode event;
        try {
            event = NotifyJson.mapper().readTree(m.payload());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the payload is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("the payload is not JSON: " + e.getMessage());
        }
        if (event == null || event.isMissingNode()) {
            throw new IllegalArgumentException("the payload is empty");
        }
        ObjectNode root = NotifyJson.mapper().createObjectNode();
        ObjectNode aps = root.putObject("aps");
        if (m.alert() != null) {
            ObjectNode alert = aps.putObject("alert");
            if (m.alert().title() != null) {
                alert.put("title", m.alert().title());
            }
            if (m.alert().body() != null) {
                alert.put("body", m.alert().body());
            }
            aps.put("thread-id", m.stream());
        } else {
            aps.put("content-available", 1);
        }
        root.set("event", event);
        root.put("id", m.eventId());
        return root.toString().getBytes(StandardCharsets.UTF_8);
    }

    static HttpRequest of(URI uri, PushRegistration.Apns to, PushMessage m, String apnsId, byte[] body, String providerToken,
                          Instant now, Duration timeout) {
        boolean alert = m.alert() != null;
        long ttl = m.ttl().toSeconds();
        return HttpRequest.newBuilder(uri)
                .version(HttpClient.Version.HTTP_2)
                .timeout(timeout)
                .header("authorization", "bearer " + providerToken)
                .header("apns-topic", to.topic())
                .header("apns-push-type", alert ? "alert" : "background")
                .header("apns-priority", alert && m.urgency() == PushMessage.Urgency.HIGH ? "10" : "5")
                .header("apns-expiration", Long.toString(ttl == 0 ? 0 : now.getEpochSecond() + ttl))
                .header("apns-collapse-id", m.collapseId())
                .header("apns-id", apnsId)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }
}
