package io.notify.protocol.frame;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The JSON-schema check ({@code frames-v1.schema.json}) of a client frame that the fast path
 * ({@link ClientFrameReader}) leaves to the schema. Only a server decodes client frames; the
 * gateway passes notify-schemas' {@code io.notify.schemas.validation.FrameSchema}. It is an
 * interface here so that this module, and the Java SDK built on it, need no JSON-schema validator.
 */
@FunctionalInterface
public interface ClientFrameSchema {

    /** The first rule of the schema that {@code frame} breaks, or null when the schema accepts it. */
    Failure firstFailure(JsonNode frame);

    /**
     * One broken rule, as a JSON-schema validator reports it: where (a JSON pointer, "" for the
     * whole frame), which keyword ({@code required}, {@code additionalProperties}, {@code false}...),
     * the property it names, if any, and the validator's own message.
     */
    record Failure(String instanceLocation, String keyword, String property, String message) {
        public Failure {
            if (instanceLocation == null || message == null) {
                throw new IllegalArgumentException("instanceLocation and message are required");
            }
        }
    }
}
