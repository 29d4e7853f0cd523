package io.notify.protocol.frame;

/**
 * A frame could not be read: malformed, too long, too deep, an unknown {@code "t"}, a missing or
 * invalid field. {@link #field()} is the JSON pointer of the offending field ("" for the whole
 * frame) and the message names it too, so a client developer can fix the frame from the error
 * alone. The gateway answers it by closing with {@link CloseCode#PROTOCOL_ERROR}.
 */
public final class ProtocolException extends RuntimeException {

    private final String field;
    private final boolean unknownType;

    ProtocolException(String field, String message, boolean unknownType, Throwable cause) {
        super(field == null || field.isEmpty() ? message : field + ": " + message, cause);
        this.field = field == null ? "" : field;
        this.unknownType = unknownType;
    }

    /** For protocol violations found outside the codec (e.g. a second {@code resume}); {@code field} may be "". */
    public ProtocolException(String field, String message) {
        this(field, message, false, null);
    }

    /** JSON pointer of the offending field, "" when the frame as a whole is at fault. */
    public String field() {
        return field;
    }

    /**
     * True when only {@code "t"} was not understood. A client may ignore such frames from a newer
     * server; a server must not ignore them from a client.
     */
    public boolean isUnknownType() {
        return unknownType;
    }
}
