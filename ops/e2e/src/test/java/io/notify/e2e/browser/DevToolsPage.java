package io.notify.e2e.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One browser tab over the Chrome DevTools Protocol: evaluate JavaScript in the page, reload it,
 * wait for a condition in it, and read what the page logged (console, uncaught exceptions, the
 * browser's own log such as refused connections or CORS errors) for failure messages.
 *
 * <p>Guarantees: every call has a timeout ({@value #CALL_TIMEOUT_SECONDS} s); an exception thrown
 * by evaluated code is an {@link AssertionError} carrying the page's message.
 */
final class DevToolsPage implements AutoCloseable {

    private static final long CALL_TIMEOUT_SECONDS = 15;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<String> log = new ArrayList<>();
    private WebSocket socket;

    private DevToolsPage() {
    }

    static DevToolsPage attach(HttpClient http, URI debuggerUrl) throws IOException, InterruptedException {
        DevToolsPage page = new DevToolsPage();
        try {
            page.socket = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(debuggerUrl, page.new Listener()).get(15, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("cannot attach to " + debuggerUrl + ": " + e, e);
        }
        page.call("Runtime.enable", JSON.createObjectNode());
        page.call("Log.enable", JSON.createObjectNode());
        page.call("Page.enable", JSON.createObjectNode());
        return page;
    }

    /** Sends one CDP command and returns its result. */
    JsonNode call(String method, ObjectNode params) {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
        message.set("params", params);
        try {
            socket.sendText(message.toString(), true).get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            JsonNode response = answer.get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (response.has("error")) {
                throw new AssertionError(method + " failed: " + response.get("error"));
            }
            return response.path("result");
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError(method + " got no answer within " + CALL_TIMEOUT_SECONDS + " s: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted during " + method, e);
        } finally {
            pending.remove(id);
        }
    }

    /** Evaluates {@code expression} in the page (promises are awaited) and returns its JSON value. */
    JsonNode evaluate(String expression) {
        ObjectNode params = JSON.createObjectNode().put("expression", expression)
                .put("returnByValue", true).put("awaitPromise", true);
        JsonNode result = call("Runtime.evaluate", params);
        if (result.has("exceptionDetails")) {
            JsonNode details = result.get("exceptionDetails");
            throw new AssertionError("page threw evaluating `" + expression + "`: "
                    + details.path("exception").path("description").asText(details.path("text").asText()));
        }
        return result.path("result").path("value");
    }

    String text(String expression) {
        return evaluate(expression).asText();
    }

    /**
     * Polls {@code condition} (a JS expression) until it is truthy; fails with the page's state and
     * log. While the page (re)loads the condition may throw or have no context to run in: that
     * counts as false.
     */
    void waitFor(String what, String condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String probe = "(() => { try { return !!(" + condition + "); } catch (e) { return false; } })()";
        while (!holds(probe)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(what + ": not within " + timeout.toSeconds() + " s.\n" + describe());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // the condition is the signal; this only bounds the polling rate
        }
    }

    private boolean holds(String probe) {
        try {
            return evaluate(probe).asBoolean();
        } catch (AssertionError e) {
            return false; // no execution context during a navigation
        }
    }

    /** Saves a PNG of the viewport (a look at what the page shows, kept under target/). */
    void screenshot(Path file) throws IOException {
        JsonNode shot = call("Page.captureScreenshot", JSON.createObjectNode().put("format", "png"));
        Files.write(file, Base64.getDecoder().decode(shot.path("data").asText()));
    }

    void reload() {
        call("Page.reload", JSON.createObjectNode().put("ignoreCache", true));
    }

    /** What the page shows and logged, for failure messages. */
    String describe() {
        String state;
        try {
            state = text("document.querySelector('header').innerText"
                    + " + '\\ninbox:\\n' + (document.getElementById('inbox')?.innerText ?? '')"
                    + " + '\\nfeed:\\n' + document.getElementById('feed').innerText");
        } catch (AssertionError e) {
            state = "(page state unreadable: " + e.getMessage() + ")";
        }
        synchronized (log) {
            return "page:\n" + state + "\npage log:\n  " + String.join("\n  ", log);
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            socket.abort();
        }
    }

    private void onMessage(String text) {
        JsonNode message;
        try {
            message = JSON.readTree(text);
        } catch (IOException e) {
            return; // CDP always sends JSON; nothing useful to do with anything else
        }
        if (message.has("id")) {
            CompletableFuture<JsonNode> answer = pending.get(message.get("id").asInt());
            if (answer != null) {
                answer.complete(message);
            }
            return;
        }
        String line = switch (message.path("method").asText()) {
            case "Runtime.consoleAPICalled" -> {
                StringBuilder sb = new StringBuilder("console." + message.path("params").path("type").asText() + ":");
                for (JsonNode arg : message.path("params").path("args")) {
                    sb.append(' ').append(arg.has("value") ? arg.get("value").asText() : arg.path("description").asText());
                }
                yield sb.toString();
            }
            case "Runtime.exceptionThrown" -> "exception: " + message.path("params").path("exceptionDetails").path("exception")
                    .path("description").asText(message.path("params").path("exceptionDetails").path("text").asText());
            case "Log.entryAdded" -> "browser " + message.path("params").path("entry").path("level").asText() + ": "
                    + message.path("params").path("entry").path("text").asText();
            default -> null;
        };
        if (line != null) {
            synchronized (log) {
                log.add(line);
            }
        }
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                onMessage(text);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            pending.values().forEach(f -> f.completeExceptionally(error));
        }
    }
}
