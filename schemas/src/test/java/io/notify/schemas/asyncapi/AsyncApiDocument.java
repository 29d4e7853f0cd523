package io.notify.schemas.asyncapi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import io.notify.protocol.NotifyJson;
import io.notify.schemas.validation.JsonSchemas;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Test support: docs/asyncapi.yaml as a tree (SnakeYAML, so anchors and aliases are expanded), with
 * its internal {@code $ref}s followed and its references into the JSON Schema files compiled.
 */
final class AsyncApiDocument {

    /** The document, from a test's working directory (the schemas module). */
    static final Path PATH = Path.of("..", "docs", "asyncapi.yaml");

    private final JsonNode root;
    private final Path dir;

    private AsyncApiDocument(JsonNode root, Path dir) {
        this.root = root;
        this.dir = dir;
    }

    static AsyncApiDocument load() {
        assertTrue(Files.isRegularFile(PATH), PATH.toAbsolutePath() + " is missing");
        try (Reader in = Files.newBufferedReader(PATH)) {
            Object yaml = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
            return new AsyncApiDocument(NotifyJson.mapper().valueToTree(yaml), PATH.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode root() {
        return root;
    }

    JsonNode channel(String id) {
        JsonNode channel = root.path("channels").path(id);
        assertTrue(channel.isObject(), "no channel " + id);
        return channel;
    }

    /** {@code node}, or what its internal {@code $ref} ("#/...") points at, followed until none is left. */
    JsonNode deref(JsonNode node) {
        for (int hops = 0; node.has("$ref") && node.get("$ref").asText().startsWith("#"); hops++) {
            assertTrue(hops < 10, "a $ref cycle at " + node);
            String ref = node.get("$ref").asText();
            node = root.at(JsonPointer.compile(ref.substring(1)));
            assertTrue(!node.isMissingNode(), "dangling $ref " + ref);
        }
        return node;
    }

    /** A channel's messages, by their key in the channel, each dereferenced. */
    Map<String, JsonNode> messages(String channelId) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        channel(channelId).path("messages").fields().forEachRemaining(e -> out.put(e.getKey(), deref(e.getValue())));
        return out;
    }

    /** The message keys named by the operations on {@code channelId} with {@code action} ("send"/"receive"). */
    Set<String> operationMessages(String channelId, String action) {
        Set<String> out = new TreeSet<>();
        String channelRef = "#/channels/" + channelId;
        root.path("operations").forEach(op -> {
            if (op.path("channel").path("$ref").asText().equals(channelRef) && op.path("action").asText().equals(action)) {
                op.path("messages").forEach(m -> out.add(messageKey(m.path("$ref").asText(), channelRef)));
            }
        });
        return out;
    }

    /** The message keys of every reply to an operation on {@code channelId}. */
    Set<String> replyMessages(String channelId) {
        Set<String> out = new TreeSet<>();
        String channelRef = "#/channels/" + channelId;
        root.path("operations").forEach(op -> {
            JsonNode reply = op.path("reply");
            if (reply.path("channel").path("$ref").asText().equals(channelRef)) {
                reply.path("messages").forEach(m -> out.add(messageKey(m.path("$ref").asText(), channelRef)));
            }
        });
        return out;
    }

    private static String messageKey(String ref, String channelRef) {
        String prefix = channelRef + "/messages/";
        assertTrue(ref.startsWith(prefix), "an operation on " + channelRef + " names a message of another channel: " + ref);
        return ref.substring(prefix.length());
    }

    /** Every {@code $ref} value in the document, in document order. */
    List<String> allRefs() {
        List<String> out = new ArrayList<>();
        collectRefs(root, out);
        return out;
    }

    private static void collectRefs(JsonNode node, List<String> out) {
        if (node.has("$ref")) {
            out.add(node.get("$ref").asText());
        }
        node.forEach(child -> collectRefs(child, out));
    }

    /** The file a reference into a schema file names, resolved against the document's folder. */
    Path fileOf(String ref) {
        int hash = ref.indexOf('#');
        return dir.resolve(hash < 0 ? ref : ref.substring(0, hash)).normalize();
    }

    /** The JSON pointer of a reference into a schema file ("" for the whole file). */
    static String pointerOf(String ref) {
        int hash = ref.indexOf('#');
        return hash < 0 ? "" : ref.substring(hash + 1);
    }

    /** The node a reference into a schema file points at; missing when the pointer names nothing. */
    JsonNode target(String ref) {
        return readJson(fileOf(ref)).at(JsonPointer.compile(pointerOf(ref)));
    }

    /**
     * The schema a reference into a schema file names, compiled by {@link JsonSchemas}: the whole
     * file, or one of its {@code $defs} (compiled as the file with a root that is only that
     * definition, so the file's own "#/$defs/..." references still resolve).
     */
    /** The payload schema's {@code $ref} of the (first) message of channel {@code channelId}. */
    String payloadRef(String channelId) {
        return messages(channelId).values().iterator().next().path("payload").path("$ref").asText();
    }

    /** {@code json} parsed; an AssertionError naming it when it is not JSON. */
    static JsonNode json(String json) {
        try {
            return io.notify.protocol.NotifyJson.mapper().readTree(json);
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + json, e);
        }
    }

    Schema schema(String ref) {
        JsonNode file = readJson(fileOf(ref));
        String pointer = pointerOf(ref);
        if (pointer.isEmpty()) {
            return JsonSchemas.compile(file);
        }
        assertTrue(pointer.startsWith("/$defs/") && !file.at(JsonPointer.compile(pointer)).isMissingNode(),
                "a payload reference must name a definition in $defs of its file: " + ref);
        ObjectNode rooted = NotifyJson.mapper().createObjectNode();
        rooted.set("$schema", file.get("$schema"));
        rooted.set("$id", file.get("$id"));
        rooted.put("$ref", "#" + pointer);
        rooted.set("$defs", file.get("$defs"));
        return JsonSchemas.compile(rooted);
    }

    private static JsonNode readJson(Path file) {
        assertTrue(Files.isRegularFile(file), "a $ref names a file that does not exist: " + file);
        try {
            return NotifyJson.mapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
