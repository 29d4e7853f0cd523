package io.notify.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The objects one Kustomize directory renders to, as {@code kubectl kustomize <dir>} prints them:
 * the exact manifests {@code kubectl apply -k} would send. kubectl is the one from PATH, or the
 * one named by the system property {@value #KUBECTL_PROPERTY}.
 */
record Manifests(Path source, List<JsonNode> objects) {

    static final String KUBECTL_PROPERTY = "notify.kubectl";
    private static final long RENDER_TIMEOUT_SECONDS = 60;

    Manifests {
        objects = List.copyOf(objects);
    }

    static Manifests render(Path kustomization) {
        String kubectl = System.getProperty(KUBECTL_PROPERTY, "kubectl");
        Process process;
        try {
            process = new ProcessBuilder(kubectl, "kustomize", kustomization.toString()).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run '" + kubectl + "' (" + e.getMessage() + "): the build renders "
                    + "ops/k8s with 'kubectl kustomize' to check the manifests; install kubectl (Debian: "
                    + "apt-get install kubernetes-client, as .ci/run does) or name one with -D" + KUBECTL_PROPERTY + "=<path>", e);
        }
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> drain(process.getErrorStream()));
        String stdout = drain(process.getInputStream());
        try {
            if (!process.waitFor(RENDER_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("kubectl kustomize " + kustomization + " did not finish within "
                        + RENDER_TIMEOUT_SECONDS + "s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while rendering " + kustomization, e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("kubectl kustomize " + kustomization + " failed (exit " + process.exitValue()
                    + "):\n" + stderr.join());
        }
        return new Manifests(kustomization, parse(stdout));
    }

    static List<JsonNode> parse(String yaml) {
        List<JsonNode> out = new ArrayList<>();
        try (MappingIterator<JsonNode> docs = new YAMLMapper().readerFor(JsonNode.class).readValues(yaml)) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                if (doc != null && doc.isObject()) {
                    out.add(doc);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("kubectl kustomize printed YAML that does not parse", e);
        }
        return out;
    }

    private static String drain(InputStream in) {
        try (in) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<JsonNode> ofKind(String kind) {
        return objects.stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
    }

    Optional<JsonNode> find(String kind, String name) {
        return ofKind(kind).stream().filter(o -> name.equals(name(o))).findFirst();
    }

    static String name(JsonNode object) {
        return object.path("metadata").path("name").asText();
    }

    /** {@code Kind/name}, how a message names an object. */
    static String id(JsonNode object) {
        return object.path("kind").asText() + "/" + name(object);
    }
}
