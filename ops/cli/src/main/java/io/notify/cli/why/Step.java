package io.notify.cli.why;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row of a timeline: when (epoch ms; null when the step has no record), which step, a sentence
 * for people, and the same facts as named values for {@code --format json} (partition, offset, seq,
 * device, …, in the order they were added).
 */
record Step(Long time, String step, String detail, Map<String, Object> facts) {

    Step {
        facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
    }
}
