package io.notify.client.store;

import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Positions in one small text file, one {@code <stream>=<epoch>:<seq>} line per stream, so a
 * restarted process resumes where it stopped; and the client's generated device id on a line
 * {@code #device=<id>} (a comment to SDKs that predate it, which still read the file). Every {@link #save} rewrites the file through a
 * temporary file in the same directory, forced to disk ({@code sync}) and atomically renamed over
 * the old one: a crash leaves either the old or the new file, never a torn one.
 *
 * <p>Costs one small write (and one fsync when {@code sync}) per durable event, which suits
 * client-side volumes; a store for thousands of events per second would batch. The file belongs to
 * one client at a time. Thread-safe.
 */
public final class FilePositionStore implements PositionStore {

    private static final String HEADER = "# notify client positions: <stream>=<epoch>:<seq>";
    private static final String DEVICE_PREFIX = "#device=";

    private final Path file;
    private final boolean sync;
    private final Map<StreamId, Position> positions = new TreeMap<>();
    private String device;

    /** A store at {@code file}, forced to disk on every save. */
    public FilePositionStore(Path file) {
        this(file, true);
    }

    /**
     * @param sync force each write to disk before returning (survives power loss, not only process death)
     * @throws UncheckedIOException when the file exists and cannot be read
     * @throws IllegalArgumentException when the file exists and a line is not a valid position
     */
    public FilePositionStore(Path file, boolean sync) {
        this.file = file.toAbsolutePath();
        this.sync = sync;
        if (Files.exists(this.file)) {
            read();
        }
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized Optional<Position> load(StreamId stream) {
        return Optional.ofNullable(positions.get(stream));
    }

    @Override
    public synchronized Map<StreamId, Position> loadAll() {
        return Map.copyOf(positions);
    }

    @Override
    public synchronized void save(StreamId stream, Position position) {
        Position previous = positions.put(stream, position);
        try {
            write();
        } catch (UncheckedIOException e) {
            restore(stream, previous);
            throw e;
        }
    }

    @Override
    public synchronized void remove(StreamId stream) {
        Position previous = positions.remove(stream);
        if (previous != null) {
            try {
                write();
            } catch (UncheckedIOException e) {
                restore(stream, previous);
                throw e;
            }
        }
    }

    @Override
    public synchronized Optional<String> loadDevice() {
        return Optional.ofNullable(device);
    }

    @Override
    public synchronized void saveDevice(String id) {
        String previous = device;
        device = id;
        try {
            write();
        } catch (UncheckedIOException e) {
            device = previous;
            throw e;
        }
    }

    private void restore(StreamId stream, Position previous) {
        if (previous == null) {
            positions.remove(stream);
        } else {
            positions.put(stream, previous);
        }
    }

    private void read() {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read positions from " + file, e);
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.startsWith(DEVICE_PREFIX)) {
                device = line.substring(DEVICE_PREFIX.length()); // checked by the client, which makes a new one if it is not valid
                continue;
            }
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            try {
                if (eq < 0) {
                    throw new IllegalArgumentException("expected <stream>=<epoch>:<seq>");
                }
                positions.put(StreamId.parse(line.substring(0, eq)), Position.parse(line.substring(eq + 1)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
    }

    private void write() {
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        if (device != null) {
            text.append(DEVICE_PREFIX).append(device).append('\n');
        }
        positions.forEach((stream, position) -> text.append(stream.value()).append('=').append(position.format()).append('\n'));
        Path dir = file.getParent();
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    ch.write(bytes);
                }
                if (sync) {
                    ch.force(true);
                }
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write positions to " + file, e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort: a stray temp file is harmless
                }
            }
        }
    }
}
