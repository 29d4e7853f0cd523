package io.notify.protocol.text;

import java.util.function.Function;

/** The one way an enum of wire names reads a name back (Jackson's {@code @JsonCreator} of each of them). */
public final class WireNames {

    private WireNames() {
    }

    /**
     * The constant of {@code values} whose wire name is {@code value}; else an IllegalArgumentException that
     * names {@code field} and every wire name ({@code reason must be muted or expired, got 'x'}).
     */
    public static <E extends Enum<E>> E parse(E[] values, Function<E, String> wireName, String value, String field) {
        for (E e : values) {
            if (wireName.apply(e).equals(value)) {
                return e;
            }
        }
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            names.append(i == 0 ? "" : i == values.length - 1 ? " or " : ", ").append(wireName.apply(values[i]));
        }
        throw new IllegalArgumentException(field + " must be " + names + ", got '" + Clip.clip(value) + "'");
    }
}
