package io.notify.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The one Jackson configuration used for every Notify wire type (events, frames, delivery
 * messages), so all modules read and write identical JSON. The mapper is thread-safe; do not
 * reconfigure it.
 */
public final class NotifyJson {

    /** Nesting bound for untrusted input: deep documents are rejected before they cost stack. */
    public static final int MAX_NESTING_DEPTH = 64;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(MAX_NESTING_DEPTH)
                .build());
    }

    private NotifyJson() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
