package io.notify.schemas.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * Loads the JSON Schema (draft 2020-12) resources of this module with one configuration:
 * JSON-pointer instance locations, format assertions on, messages in the root locale. Schemas are
 * read from the classpath only, never from the network.
 */
public final class JsonSchemas {

    private JsonSchemas() {
    }

    /** Loads and compiles a schema resource; fails fast when it is missing or unreadable. */
    public static Schema load(String resource) {
        try (InputStream in = JsonSchemas.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("schema resource missing: " + resource);
            }
            return compile(NotifyJson.mapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read schema resource " + resource, e);
        }
    }

    /** Compiles a schema document (a tree already read) with the configuration above. */
    public static Schema compile(JsonNode schema) {
        SchemaRegistryConfig config = SchemaRegistryConfig.builder()
                .pathType(PathType.JSON_POINTER)
                .formatAssertionsEnabled(true)
                .locale(Locale.ROOT)
                .build();
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                b -> b.schemaRegistryConfig(config));
        return registry.getSchema(schema);
    }
}
