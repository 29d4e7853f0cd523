package io.notify.protocol.prefs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PreferencesTest {

    static final Preferences PREFS = new Preferences(
            Map.of("promo.vip", new Channels(null, null, true), "order.shipped", new Channels(false, null, null)),
            Map.of("marketing", new Channels(null, false, false)), null);

    @Test
    void aTypesEntryDecidesTheChannelsItNamesAndItsCategoryTheRest() {
        Channels vip = PREFS.channelsFor("promo.vip", "marketing");
        assertTrue(vip.pushOn(), "the type turns push back on");
        assertFalse(vip.inboxOn(), "the category's inbox setting stays");
        assertTrue(vip.liveOn());
        Channels sale = PREFS.channelsFor("promo.sale", "marketing");
        assertFalse(sale.pushOn());
        assertFalse(sale.inboxOn());
        Channels shipped = PREFS.channelsFor("order.shipped", null);
        assertFalse(shipped.liveOn());
        assertTrue(shipped.inboxOn() && shipped.pushOn());
        Channels other = PREFS.channelsFor("chat.message", "social");
        assertTrue(other.liveOn() && other.inboxOn() && other.pushOn(), "nothing said: every channel on");
        assertEquals(Channels.ON, Preferences.NONE.channelsFor("x", "y"));
    }

    @Test
    void boundsAndKeysAreChecked() {
        Map<String, Channels> many = new HashMap<>();
        for (int i = 0; i <= Preferences.MAX_TYPES; i++) {
            many.put("t" + i, Channels.ON);
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Preferences(many, null, null)).getMessage()
                .contains("at most " + Preferences.MAX_TYPES));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Preferences(Map.of("has space", Channels.ON), null, null))
                .getMessage().contains("types keys"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Preferences(null, Map.of(".dot", Channels.ON), null))
                .getMessage().contains("categories keys"));
    }
}
