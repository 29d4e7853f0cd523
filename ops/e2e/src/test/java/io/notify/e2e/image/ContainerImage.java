package io.notify.e2e.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An OCI image built by jib's {@code buildTar} (Docker's {@code save} layout: manifest.json, the
 * config and one gzipped tar per layer), unpacked into a root file system, and run the way a
 * container runtime runs it without one: its entrypoint, chrooted into that file system as the
 * image's user, in a mount namespace of its own with {@code /proc} bound in (the JVM finds its
 * libraries through it), on the host's network, with the image's environment ({@link #launcher}).
 */
final class ContainerImage {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path rootfs;
    private final JsonNode config;

    private ContainerImage(Path rootfs, JsonNode config) {
        this.rootfs = rootfs;
        this.config = config;
    }

    /** Unpacks {@code imageTar} under {@code dir}: the layers in order into {@code dir/rootfs}. */
    static ContainerImage unpack(Path imageTar, Path dir) throws IOException, InterruptedException {
        Path image = Files.createDirectories(dir.resolve("image"));
        Path rootfs = Files.createDirectories(dir.resolve("rootfs"));
        tar("-xf", imageTar, image);
        JsonNode manifest = JSON.readTree(image.resolve("manifest.json").toFile()).get(0);
        for (JsonNode layer : manifest.get("Layers")) {
            tar("-xzf", image.resolve(layer.asText()), rootfs);
        }
        JsonNode config = JSON.readTree(image.resolve(manifest.get("Config").asText()).toFile()).get("config");
        // What a container runtime provides: /proc mounted, the pod's hosts and resolver files.
        Files.createDirectories(rootfs.resolve("proc"));
        for (String f : List.of("hosts", "resolv.conf")) {
            Path host = Path.of("/etc", f);
            if (Files.exists(host)) {
                Files.copy(host, rootfs.resolve("etc").resolve(f), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return new ContainerImage(rootfs, config);
    }

    private static void tar(String mode, Path archive, Path into) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("tar", mode, archive.toString(), "-C", into.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("tar " + mode + " " + archive + " failed: " + out);
        }
    }

    Path rootfs() {
        return rootfs;
    }

    List<String> entrypoint() {
        List<String> e = new ArrayList<>();
        config.path("Entrypoint").forEach(n -> e.add(n.asText()));
        return e;
    }

    String user() {
        return config.path("User").asText();
    }

    List<String> exposedPorts() {
        List<String> ports = new ArrayList<>();
        config.path("ExposedPorts").fieldNames().forEachRemaining(ports::add);
        return ports;
    }

    /** The image's environment ({@code Env}, {@code KEY=value} each). */
    Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        config.path("Env").forEach(n -> {
            String kv = n.asText();
            int eq = kv.indexOf('=');
            env.put(kv.substring(0, eq), kv.substring(eq + 1));
        });
        return env;
    }

    /**
     * The command that runs the entrypoint in the root file system; the service's arguments follow it.
     * As root (CI), it runs as the image's {@code User} ({@code chroot --userspec}), in a mount
     * namespace of its own; otherwise as root of a user namespace ({@code unshare -r}), the only user
     * such a namespace maps.
     */
    List<String> launcher() {
        List<String> cmd = new ArrayList<>(runsAsImageUser()
                ? List.of("/usr/bin/unshare", "-m", "/bin/sh", "-c",
                        "/usr/bin/mount --rbind /proc \"$0/proc\" && exec /usr/sbin/chroot --userspec=" + user() + " \"$0\" \"$@\"",
                        rootfs.toString())
                : List.of("/usr/bin/unshare", "-r", "-m", "/bin/sh", "-c",
                        "/usr/bin/mount --rbind /proc \"$0/proc\" && exec /usr/sbin/chroot \"$0\" \"$@\"", rootfs.toString()));
        cmd.addAll(entrypoint());
        return cmd;
    }

    /** True when this JVM runs as root, so the service can be started as the image's user. */
    static boolean runsAsImageUser() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** The real uid of process {@code pid} ({@code Uid:} of /proc/pid/status). */
    static int uidOf(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("Uid:")) {
                return Integer.parseInt(line.substring(4).trim().split("\\s+")[0]);
            }
        }
        throw new IOException("no Uid line for process " + pid);
    }
}
