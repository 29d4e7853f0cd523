package io.notify.schemas.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import io.notify.protocol.frame.ClientFrameSchema;
import java.util.List;

/**
 * {@code frames-v1.schema.json} as the gateway checks client frames with it
 * ({@code FrameCodec.v1().decodeClientFrame(text, FrameSchema.v1())}). It lives here, not in
 * notify-protocol, so that the protocol module and the Java SDK need no JSON-schema validator.
 * Thread-safe; share {@link #v1()}.
 */
public final class FrameSchema implements ClientFrameSchema {

    public static final String RESOURCE = "/io/notify/schemas/protocol/frames-v1.schema.json";
    private static final FrameSchema V1 = new FrameSchema(JsonSchemas.load(RESOURCE));

    private final Schema schema;

    private FrameSchema(Schema schema) {
        this.schema = schema;
    }

    public static FrameSchema v1() {
        return V1;
    }

    @Override
    public Failure firstFailure(JsonNode frame) {
        List<Error> errors = schema.validate(frame);
        if (errors.isEmpty()) {
            return null;
        }
        Error first = errors.get(0);
        String pointer = first.getInstanceLocation() == null ? "" : first.getInstanceLocation().toString();
        String message = first.getMessage() == null ? "breaks the schema's \"" + first.getKeyword() + "\" rule" : first.getMessage();
        return new Failure(pointer, first.getKeyword(), first.getProperty(), message);
    }
}
