package io.notify.protocol.prefs;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.event.EventEnvelope;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one user wants to receive (docs/inbox.md, "Preferences"): channels by event {@code type} and by
 * the {@code category} a producer may give an event, and quiet hours. The body of
 * {@code PUT /v1/preferences}; replaced as a whole. For each channel an event's type entry decides if it
 * names the channel, else its category's, else the channel is on. An event the producer marked
 * {@code critical} ignores all of it.
 *
 * <p>Bounds: at most {@value #MAX_TYPES} types and {@value #MAX_CATEGORIES} categories; keys follow the
 * rules of an event type.
 */
@JsonPropertyOrder({"types", "categories", "quietHours"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Preferences(Map<String, Channels> types, Map<String, Channels> categories, QuietHours quietHours) {

    public static final int MAX_TYPES = 256;
    public static final int MAX_CATEGORIES = 64;
    /** Nothing said: every channel on, no quiet hours. */
    public static final Preferences NONE = new Preferences(Map.of(), Map.of(), null);

    public Preferences {
        types = checked("types", types, MAX_TYPES);
        categories = checked("categories", categories, MAX_CATEGORIES);
    }

    private static Map<String, Channels> checked(String field, Map<String, Channels> entries, int max) {
        if (entries == null) {
            return Map.of();
        }
        if (entries.size() > max) {
            throw new IllegalArgumentException(field + " may have at most " + max + " entries, got " + entries.size());
        }
        TreeMap<String, Channels> out = new TreeMap<>();
        entries.forEach((key, channels) -> {
            if (!EventEnvelope.isType(key)) {
                throw new IllegalArgumentException(field + " keys must be 1..128 chars of [A-Za-z0-9._:-], starting with a letter or digit, got '"
                        + key + "'");
            }
            if (channels == null) {
                throw new IllegalArgumentException(field + "." + key + " must be an object such as {\"push\": false}");
            }
            out.put(key, channels);
        });
        return Collections.unmodifiableMap(out);
    }

    /** The channels an event of {@code type} and {@code category} (null: none) reaches. */
    public Channels channelsFor(String type, String category) {
        Channels byCategory = category == null ? null : categories.get(category);
        Channels byType = types.get(type);
        Channels base = byCategory == null ? Channels.ON : byCategory;
        return byType == null ? base : byType.over(base);
    }
}
