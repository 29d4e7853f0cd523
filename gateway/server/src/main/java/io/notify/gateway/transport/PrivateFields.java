package io.notify.gateway.transport;

import java.lang.reflect.Field;
import org.slf4j.Logger;

/**
 * The private fields of XNIO and Undertow that the transports reach, because neither library has a
 * public way to do what an idle connection's memory needs (CloseListeners, ResponseTakeover).
 * Looked up once; a version without the field, or with one of another type, gets null and one
 * warning naming what is lost, and its caller falls back to the libraries' own (heavier) behaviour.
 */
final class PrivateFields {

    private PrivateFields() {
    }

    /** {@code owner}'s declared field {@code name} of exactly {@code type}, made accessible; null (logged) if there is none. */
    static Field find(Class<?> owner, String name, Class<?> type, Logger log, String withoutIt) {
        try {
            Field f = owner.getDeclaredField(name);
            f.setAccessible(true);
            if (f.getType() != type) {
                throw new NoSuchFieldException(name + " is a " + f.getType());
            }
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.warn("cannot reach {}.{} ({}); {}", owner.getSimpleName(), name, e.toString(), withoutIt);
            return null;
        }
    }
}
