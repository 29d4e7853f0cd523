package io.notify.protocol.frame;

import com.fasterxml.jackson.databind.JsonMappingException;
import java.util.List;

/** JSON pointers (RFC 6901) and messages for decode errors. */
final class FramePointers {

    private FramePointers() {
    }

    static String of(List<JsonMappingException.Reference> path) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : path) {
            if (ref.getFieldName() != null) {
                sb.append('/').append(escape(ref.getFieldName()));
            } else if (ref.getIndex() >= 0) {
                sb.append('/').append(ref.getIndex());
            }
        }
        return sb.toString();
    }

    static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    /** A record constructor's rule reads better than Jackson's wrapper around it. */
    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        if (t instanceof JsonMappingException jme) {
            return FrameTexts.firstLine(jme.getOriginalMessage());
        }
        return FrameTexts.firstLine(t.getMessage());
    }
}
