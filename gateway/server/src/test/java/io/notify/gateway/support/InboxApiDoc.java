package io.notify.gateway.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * docs/inbox-openapi.yaml held against the gateway's real answers: each answer's status must be
 * documented for its route and method (a method the route does not take must be answered 405, as
 * its operations document it), with its media type and every header documented for it, and a JSON
 * body must match the documented schema. The document is OpenAPI 3.0, whose schemas
 * mark a null with {@code nullable}; they are read as JSON Schema 2020-12 ({@code nullable: true}
 * becomes "or null") and checked by a real validator.
 */
public final class InboxApiDoc {

    private static final String FILE = "docs/inbox-openapi.yaml";

    private final JsonNode doc;
    private final JsonNode components;
    private final SchemaRegistry schemas = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    private InboxApiDoc(JsonNode doc) {
        this.doc = doc;
        this.components = toJsonSchema(doc.path("components"));
    }

    /** The document of the repository this test runs in. */
    public static InboxApiDoc load() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path file = dir.resolve(FILE);
            if (Files.isRegularFile(file)) {
                try {
                    return new InboxApiDoc(new YAMLMapper().readTree(file.toFile()));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException(FILE + " not found above " + Path.of("").toAbsolutePath());
    }

    /** Fails unless {@code response} to {@code method} on {@code path} (its query left out) is what the document says. */
    /** The documented path {@code path} is an instance of ({@code /v1/push/registrations/pr_…} → {@code …/{id}}), or itself. */
    private String template(String path) {
        if (doc.path("paths").has(path)) {
            return path;
        }
        return doc.path("paths").propertyStream().map(Map.Entry::getKey)
                .filter(p -> p.contains("{") && path.matches(p.replaceAll("\\{[^/]+}", "[^/]+")))
                .findFirst().orElse(path);
    }

    public void check(String method, String path, HttpResponse<String> response) {
        String route = template(path.contains("?") ? path.substring(0, path.indexOf('?')) : path);
        String what = method + " " + route + " → " + response.statusCode();
        JsonNode operation = doc.path("paths").path(route).path(method.toLowerCase(Locale.ROOT));
        if (operation.isMissingNode()) { // a method the route does not take: 405, as any operation documents it
            assertEquals(405, response.statusCode(), what + ": the route takes no " + method);
            operation = doc.path("paths").path(route).properties().stream().filter(e -> !e.getKey().equals("options"))
                    .findFirst().orElseThrow().getValue();
        }
        JsonNode answer = operation.path("responses").path(Integer.toString(response.statusCode()));
        assertFalse(answer.isMissingNode(), what + " is not documented; body: " + response.body());
        answer = resolve(answer);
        for (Map.Entry<String, JsonNode> header : answer.path("headers").properties()) {
            assertFalse(response.headers().firstValue(header.getKey()).isEmpty(),
                    what + ": documented header " + header.getKey() + " missing");
        }
        if (response.statusCode() == 204) {
            return;
        }
        String mediaType = response.headers().firstValue("Content-Type").orElse("").split(";")[0].trim();
        JsonNode content = answer.path("content").path(mediaType);
        assertFalse(content.isMissingNode(), what + ": media type " + mediaType + " is not documented");
        assertEquals(List.of(), violations(content.path("schema"), response.body()),
                what + " does not match its schema: " + response.body());
    }

    /** What is wrong with {@code body} by the document's {@code schema} (whose {@code $ref}s point into its components). */
    private List<String> violations(JsonNode schema, String body) {
        ObjectNode standalone = JsonNodeFactory.instance.objectNode()
                .put("$schema", "https://json-schema.org/draft/2020-12/schema");
        standalone.set("components", components);
        standalone.putArray("allOf").add(toJsonSchema(schema));
        JsonNode value;
        try {
            value = NotifyJson.mapper().readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + body, e);
        }
        return schemas.getSchema(standalone).validate(value).stream().map(Error::toString).toList();
    }

    private JsonNode resolve(JsonNode node) {
        JsonNode ref = node.get("$ref");
        if (ref == null) {
            return node;
        }
        JsonNode target = doc;
        for (String part : ref.asText().substring(2).split("/")) {
            target = target.path(part);
        }
        return target;
    }

    /** An OpenAPI 3.0 schema as JSON Schema 2020-12: every {@code nullable: true} becomes "this, or null". */
    private static JsonNode toJsonSchema(JsonNode node) {
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            node.forEach(n -> out.add(toJsonSchema(n)));
            return out;
        }
        if (!node.isObject()) {
            return node;
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        node.properties().forEach(e -> {
            if (!e.getKey().equals("nullable") && !e.getKey().equals("example") && !e.getKey().equals("examples")) {
                out.set(e.getKey(), toJsonSchema(e.getValue()));
            }
        });
        if (!node.path("nullable").asBoolean(false)) {
            return out;
        }
        ObjectNode orNull = JsonNodeFactory.instance.objectNode();
        orNull.putArray("anyOf").add(out).addObject().put("type", "null");
        return orNull;
    }
}
