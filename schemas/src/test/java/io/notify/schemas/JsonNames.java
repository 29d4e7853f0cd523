package io.notify.schemas;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.TreeSet;

/** Test support: the JSON names Jackson gives a record, and schema documents as trees. */
public final class JsonNames {

    private JsonNames() {
    }

    /** The names of the properties Jackson writes for {@code type}, as NotifyJson is configured. */
    public static Set<String> of(Class<?> type) {
        ObjectMapper m = NotifyJson.mapper();
        BeanDescription d = m.getSerializationConfig().introspect(m.constructType(type));
        Set<String> names = new TreeSet<>();
        for (BeanPropertyDefinition p : d.findProperties()) {
            if (p.couldSerialize()) {
                names.add(p.getName());
            }
        }
        return names;
    }

    public static Set<String> fieldNames(JsonNode object) {
        Set<String> names = new TreeSet<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** The texts of a JSON array of strings (a schema's {@code required}, an {@code enum}), as a sorted set. */
    public static Set<String> texts(JsonNode array) {
        Set<String> out = new TreeSet<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    public static JsonNode resource(String path) {
        try (InputStream in = JsonNames.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + path);
            }
            return NotifyJson.mapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
