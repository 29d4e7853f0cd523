package io.notify.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Checks real HTTP responses against docs/openapi.yaml: the status must be documented for the
 * operation, the media type must match, and the body must validate against the documented schema
 * (OpenAPI 3.1 schemas are JSON Schema 2020-12, so a real validator does the work).
 */
final class OpenApiContract {

    private final JsonNode document;
    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private final ObjectMapper json = new ObjectMapper();
    private int checked;

    OpenApiContract(Path yaml) {
        try {
            this.document = new YAMLMapper().readTree(Files.readAllBytes(yaml));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static OpenApiContract fromRepository() {
        Path here = Path.of("").toAbsolutePath();
        for (Path p = here; p != null; p = p.getParent()) {
            if (Files.exists(p.resolve("docs/openapi.yaml"))) {
                return new OpenApiContract(p.resolve("docs/openapi.yaml"));
            }
        }
        throw new IllegalStateException("docs/openapi.yaml not found above " + here);
    }

    int checked() {
        return checked;
    }

    void check(String method, String path, HttpResponse<String> response) {
        JsonNode operation = document.path("paths").path(path).path(method.toLowerCase(Locale.ROOT));
        assertFalse(operation.isMissingNode(), method + " " + path + " is not in openapi.yaml");
        JsonNode spec = operation.path("responses").path(Integer.toString(response.statusCode()));
        assertFalse(spec.isMissingNode(), method + " " + path + " answered " + response.statusCode()
                + ", which openapi.yaml does not document; body: " + response.body());
        String contentType = response.headers().firstValue("content-type").orElse("");
        String mediaType = contentType.split(";")[0].trim();
        JsonNode media = spec.path("content").path(mediaType);
        assertFalse(media.isMissingNode(), "documented media types for " + response.statusCode() + " are "
                + spec.path("content").properties().stream().map(e -> e.getKey()).toList() + ", got " + contentType);
        spec.path("headers").properties().forEach(h -> assertTrue(
                response.headers().firstValue(h.getKey()).isPresent(),
                "documented header " + h.getKey() + " missing on " + response.statusCode()));
        if (mediaType.endsWith("json")) {
            ObjectNode wrapper = json.createObjectNode();
            wrapper.put("$schema", "https://json-schema.org/draft/2020-12/schema");
            wrapper.set("components", document.path("components"));
            wrapper.putArray("allOf").add(media.path("schema"));
            List<Error> errors;
            try {
                errors = registry.getSchema(wrapper).validate(json.readTree(response.body()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            assertEquals(List.of(), errors.stream().map(Error::toString).toList(),
                    "response " + response.statusCode() + " does not match openapi.yaml: " + response.body());
        }
        checked++;
    }
}
