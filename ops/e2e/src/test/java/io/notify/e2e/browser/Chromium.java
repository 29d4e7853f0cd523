package io.notify.e2e.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.notify.devstack.ProcessSignals;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Assumptions;

/**
 * A real headless Chromium (the Debian package at {@value #BINARY}), driven over the Chrome
 * DevTools Protocol with nothing but java.net.http: no WebDriver, no npm.
 *
 * <p>Guarantees: every browser starts with a fresh, empty profile ({@code --user-data-dir} inside
 * the given directory) and with the flags that keep it off the network on a closed machine (no
 * background networking, component updates, sync or QUIC). The DevTools port is chosen by Chromium
 * ({@code --remote-debugging-port=0}) and read from the profile's {@code DevToolsActivePort} file,
 * so parallel runs never collide. {@link #close} kills the process and its children. The browser's
 * own output goes to {@code chromium.log} beside the profile, for a failing test to point at.
 */
final class Chromium implements AutoCloseable {

    static final String BINARY = "/usr/bin/chromium";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final int devToolsPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<DevToolsPage> pages = new ArrayList<>();

    private Chromium(Process process, int devToolsPort) {
        this.process = process;
        this.devToolsPort = devToolsPort;
    }

    /** True where the Debian chromium package is installed (.ci/run installs it). */
    static boolean installed() {
        return Files.isExecutable(Path.of(BINARY));
    }

    /** Skips the calling test where Chromium is not installed. */
    static void assumeInstalled() {
        Assumptions.assumeTrue(installed(), BINARY + " not installed (apt-get install chromium): skipped");
    }

    static Chromium launch(Path dir) throws IOException {
        Path profile = Files.createDirectories(dir.resolve("profile"));
        Path log = dir.resolve("chromium.log");
        List<String> command = List.of(BINARY,
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--no-default-browser-check", "--disable-extensions", "--window-size=1280,900",
                "--user-data-dir=" + profile.toAbsolutePath(),
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                "about:blank");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Path portFile = profile.resolve("DevToolsActivePort");
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            if (Files.exists(portFile)) {
                List<String> lines = Files.readAllLines(portFile, StandardCharsets.US_ASCII);
                if (!lines.isEmpty() && lines.get(0).matches("\\d+")) {
                    return new Chromium(process, Integer.parseInt(lines.get(0)));
                }
            }
            if (!process.isAlive() || System.nanoTime() - deadline > 0) {
                process.destroyForcibly();
                throw new IOException("Chromium did not open its DevTools port within " + START_TIMEOUT
                        + " (alive: " + process.isAlive() + "); its output:\n" + Files.readString(log));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // bounded poll of a file Chromium writes once
        }
    }

    /** Opens {@code url} in a new tab and attaches to it. */
    DevToolsPage open(String url) throws IOException, InterruptedException {
        // Chromium 111+ requires PUT for /json/new
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + devToolsPort
                        + "/json/new?" + URLEncoder.encode(url, StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(10)).PUT(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (created.statusCode() != 200) {
            throw new IOException("DevTools /json/new answered " + created.statusCode() + ": " + created.body());
        }
        JsonNode target = new ObjectMapper().readTree(created.body());
        DevToolsPage page = DevToolsPage.attach(http, URI.create(target.path("webSocketDebuggerUrl").asText()));
        pages.add(page);
        return page;
    }

    @Override
    public void close() {
        pages.forEach(DevToolsPage::close);
        ProcessSignals.killTree(process, Duration.ofSeconds(10));
    }
}
