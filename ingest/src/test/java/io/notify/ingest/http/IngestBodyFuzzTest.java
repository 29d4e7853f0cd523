package io.notify.ingest.http;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Ingest's parser and validator against arbitrary bodies: every item ends as a planned answer
 * (a 4xx problem, or an event ready to write), never an exception (which the handler answers as
 * an unplanned 500). The bodies are mostly near-valid events with one field replaced by arbitrary
 * JSON (numbers at and past a double's range, lone surrogates, deep nesting, wrong types), so most
 * reach the validator and the binder rather than stopping at the first syntax error.
 */
class IngestBodyFuzzTest {

    private static final int MAX_EVENT_BYTES = 96 * 1024;
    private static final int MAX_ITEMS = 500;
    private static final List<String> FIELDS = List.of("id", "type", "to", "class", "data", "occurredAt", "collapseKey",
            "source", "fallback");

    @Property(tries = 10000)
    void everyItemOfAJsonBodyIsAPlannedAnswer(@ForAll("bodies") String body) {
        checkEveryItem(body, RequestBody.Format.JSON);
    }

    @Property(tries = 500)
    void everyLineOfAnNdjsonBodyIsAPlannedAnswer(@ForAll("ndjsonBodies") String body) {
        checkEveryItem(body, RequestBody.Format.NDJSON);
    }

    private static void checkEveryItem(String body, RequestBody.Format format) {
        RequestBody.Split split;
        try {
            split = RequestBody.split(body.getBytes(StandardCharsets.UTF_8), format, MAX_EVENT_BYTES, MAX_ITEMS);
        } catch (RequestBody.Rejected e) {
            assertPlanned(e.problem.status(), body);
            return;
        } catch (RuntimeException e) {
            throw new AssertionError("split threw for " + body, e);
        }
        for (RequestBody.Candidate candidate : split.candidates()) {
            ItemCheck.Outcome outcome;
            try {
                outcome = ItemCheck.check(candidate);
            } catch (RuntimeException e) {
                throw new AssertionError("the item check threw (an unplanned 500) for " + body, e);
            }
            if (outcome instanceof ItemCheck.Refused refused) {
                assertPlanned(refused.problem().status(), body);
            } else if (!(outcome instanceof ItemCheck.Ready ready) || ready.value().length == 0) {
                fail("neither refused nor ready: " + outcome);
            }
        }
    }

    private static void assertPlanned(int status, String body) {
        assertTrue(status == 400 || status == 413, "status " + status + " for " + body);
    }

    @Provide
    Arbitrary<String> bodies() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, mutatedEvent()),
                net.jqwik.api.Tuple.of(2, mutatedEvent().list().ofMinSize(1).ofMaxSize(4).map(l -> "[" + String.join(",", l) + "]")),
                net.jqwik.api.Tuple.of(1, json(4)),
                net.jqwik.api.Tuple.of(1, Arbitraries.strings().all().ofMaxLength(64)));
    }

    @Provide
    Arbitrary<String> ndjsonBodies() {
        return Arbitraries.oneOf(mutatedEvent(), Arbitraries.strings().all().ofMaxLength(32))
                .list().ofMinSize(1).ofMaxSize(4).map(l -> String.join("\n", l));
    }

    /** A valid event with one field replaced by (or added as) arbitrary JSON, or a valid one unchanged. */
    private static Arbitrary<String> mutatedEvent() {
        Arbitrary<String> field = Arbitraries.oneOf(Arbitraries.of(FIELDS), key());
        return Combinators.combine(field, Arbitraries.oneOf(json(3), validValue()), Arbitraries.integers().between(0, 9))
                .as((name, value, keep) -> {
                    StringBuilder sb = new StringBuilder("{");
                    String[][] base = {
                            {"id", "\"ev-1\""}, {"type", "\"order.shipped\""}, {"to", "{\"users\":[\"42\"]}"},
                            {"data", "{\"n\":1}"}};
                    for (String[] kv : base) {
                        if (!kv[0].equals(name)) {
                            sb.append(quote(kv[0])).append(':').append(kv[1]).append(',');
                        }
                    }
                    if (keep > 0) { // one time in ten the field is left out
                        sb.append(quote(name)).append(':').append(value).append(',');
                    }
                    sb.setLength(sb.length() - 1);
                    return sb.append('}').toString();
                });
    }

    private static Arbitrary<String> validValue() {
        return Arbitraries.of("\"2026-12-04T10:00:00Z\"", "\"ephemeral\"", "\"durable\"", "{\"rooms\":[\"r1\"],\"broadcast\":true}",
                "{\"after\":\"10s\",\"channel\":\"push\"}", "\"orders\"", "{\"users\":[\"a\",\"b\"]}", "\"k-1\"");
    }

    private static Arbitrary<String> json(int depth) {
        Arbitrary<String> leaf = Arbitraries.oneOf(number(), string(), Arbitraries.of("true", "false", "null"),
                Arbitraries.of("\"\\uD800\"", "\"\\udfff x\"", "\"\\u0000\"", "\"\\uD83D\\uDE00\"")); // escaped surrogates
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<String> array = Arbitraries.lazy(() -> json(depth - 1)).list().ofMaxSize(4).map(l -> "[" + String.join(",", l) + "]");
        Arbitrary<String> object = Combinators.combine(key(), Arbitraries.lazy(() -> json(depth - 1))).as((k, v) -> quote(k) + ":" + v)
                .list().ofMaxSize(4).map(l -> "{" + String.join(",", l) + "}");
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(3, leaf), net.jqwik.api.Tuple.of(1, array), net.jqwik.api.Tuple.of(1, object));
    }

    /** Numbers a JSON reader may choke on, and ordinary ones. */
    private static Arbitrary<String> number() {
        return Arbitraries.oneOf(
                Arbitraries.of("1e999", "-1e999", "1E+400", "1e-999", "-0", "0.0", "1e308", "1.7976931348623157e308",
                        "1.8e308", "4.9e-324", "123456789012345678901234567890", "1" + "0".repeat(400), "1e2147483648",
                        "-9223372036854775809", "9223372036854775808", "0.1e-2147483648"),
                Arbitraries.doubles().map(d -> Double.isFinite(d) ? Double.toString(d) : "1"),
                Arbitraries.longs().map(l -> Long.toString(l)),
                Combinators.combine(Arbitraries.integers().between(1, 9), Arbitraries.integers().between(-1200, 1200))
                        .as((m, e) -> m + "e" + e));
    }

    private static Arbitrary<String> string() {
        return Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(20), Arbitraries.of("\uD800", "\uDFFF", "a\u0000b",
                "2026-02-30T10:00:00Z", "9999-12-31T23:59:59Z", "", " ", "u:1|x", "r:", "b:all")).map(IngestBodyFuzzTest::quote);
    }

    private static Arbitrary<String> key() {
        return Arbitraries.oneOf(Arbitraries.of(FIELDS), Arbitraries.of("users", "rooms", "broadcast", "after", "channel", "t"),
                Arbitraries.strings().all().ofMaxLength(8));
    }

    private static String quote(String s) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
    }
}
