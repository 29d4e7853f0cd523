package io.notify.client.internal;

import io.notify.client.store.PositionStore;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's device id (docs/protocol.md §1, {@code ?device=}): 1 to 64 characters of
 * {@code [A-Za-z0-9._-]}, the same on every connection of a device, named in its acks, its marks and
 * the {@code state} frames they cause. Given by the application, or generated once and kept in the
 * position store when the store can keep it ({@link PositionStore#saveDevice}), else new per client.
 */
public final class DeviceIds {

    public static final Pattern PATTERN = Pattern.compile("^[A-Za-z0-9._-]{1,64}$");
    private static final Logger LOG = LoggerFactory.getLogger(DeviceIds.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private DeviceIds() {
    }

    /** {@code device} when it is a valid id. */
    public static String check(String device) {
        if (device == null || !PATTERN.matcher(device).matches()) {
            throw new IllegalArgumentException("a device id is 1 to 64 characters of [A-Za-z0-9._-], got '"
                    + (device == null || device.length() <= 70 ? device : device.substring(0, 70) + "…") + "'");
        }
        return device;
    }

    /** The id {@code store} keeps, else a new one, kept there when it can be (a store failure is logged: the id is then this client's only). */
    public static String resolve(PositionStore store) {
        try {
            Optional<String> kept = store.loadDevice().filter(d -> PATTERN.matcher(d).matches());
            if (kept.isPresent()) {
                return kept.get();
            }
        } catch (RuntimeException e) {
            LOG.warn("cannot read the device id from the position store; using a new one", e);
        }
        String device = generate();
        try {
            store.saveDevice(device);
        } catch (RuntimeException e) {
            LOG.warn("cannot keep the device id {} in the position store; the next client will be another device", device, e);
        }
        return device;
    }

    /** {@code java-} and 16 random URL-safe characters (96 bits). */
    static String generate() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return "java-" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
