package io.notify.cli.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code notifyctl config-reference}: writes docs/config/&lt;service&gt;.md from the config records
 * ({@link ConfigReference}). It lives in notifyctl because this is the one module that depends on
 * every service, and an operator can print the reference of the version they run. Exit codes: 0
 * written (or, with {@code --check}, up to date), 1 a page differs ({@code --check}), 2 bad usage.
 */
@Command(name = "config-reference", mixinStandardHelpOptions = true,
        description = "Write the configuration reference of every service (docs/config/<service>.md) from the config records.")
public final class ConfigReferenceCommand implements Callable<Integer> {

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "docs/config",
            description = "Directory of the pages (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--check", description = "Write nothing; exit 1 naming each page that differs from the generated one.")
    boolean check;

    @Override
    public Integer call() throws IOException {
        Map<String, String> pages = ConfigReference.pages();
        List<String> differ = new ArrayList<>();
        if (!check) {
            Files.createDirectories(out);
        }
        for (Map.Entry<String, String> page : pages.entrySet()) {
            Path file = out.resolve(page.getKey());
            if (check) {
                if (!Files.exists(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(page.getValue())) {
                    differ.add(file.toString());
                }
            } else {
                Files.writeString(file, page.getValue(), StandardCharsets.UTF_8);
                System.err.println("config-reference: wrote " + file);
            }
        }
        if (!differ.isEmpty()) {
            System.err.println("config-reference: out of date: " + String.join(", ", differ) + "; run " + ConfigReference.REGENERATE
                    + " to regenerate");
            return 1;
        }
        return 0;
    }
}
