package io.notify.client.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.client.internal.DeviceIds;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PositionStoreTest {

    private static final StreamId U42 = StreamId.forUser("42");
    private static final StreamId ODD = StreamId.forUser("a.b:c@d-e");

    @TempDir
    Path dir;

    private static void roundTrip(PositionStore store) {
        assertEquals(Optional.empty(), store.load(U42));
        store.save(U42, Position.of("k3x9m2p8q7rdw5ta", 17));
        store.save(ODD, Position.of("e_-1", 9_007_199_254_740_991L));
        store.save(U42, Position.of("k3x9m2p8q7rdw5ta", 18));
        assertEquals(Optional.of(Position.of("k3x9m2p8q7rdw5ta", 18)), store.load(U42));
        assertEquals(Map.of(U42, Position.of("k3x9m2p8q7rdw5ta", 18), ODD, Position.of("e_-1", 9_007_199_254_740_991L)),
                store.loadAll());
        store.remove(ODD);
        assertEquals(Map.of(U42, Position.of("k3x9m2p8q7rdw5ta", 18)), store.loadAll());
    }

    @Test
    void inMemoryRoundTrip() {
        roundTrip(new InMemoryPositionStore());
    }

    @Test
    void fileRoundTripSurvivesANewInstanceAndLeavesNoTemporaryFiles() throws IOException {
        Path file = dir.resolve("sub/positions.txt");
        roundTrip(new FilePositionStore(file));
        FilePositionStore reopened = new FilePositionStore(file, false);
        assertEquals(Map.of(U42, Position.of("k3x9m2p8q7rdw5ta", 18)), reopened.loadAll());
        reopened.save(ODD, Position.of("z", 1));
        assertEquals(Optional.of(Position.of("z", 1)), new FilePositionStore(file).load(ODD));
        try (Stream<Path> files = Files.list(file.getParent())) {
            assertEquals(List.of(file.getFileName().toString()), files.map(p -> p.getFileName().toString()).toList());
        }
        String text = Files.readString(file);
        assertTrue(text.contains("u:42=k3x9m2p8q7rdw5ta:18\n"), text);
    }

    @Test
    void aCorruptFileIsRefusedWithItsLineNumber() throws IOException {
        Path file = dir.resolve("positions.txt");
        Files.writeString(file, "# comment\nu:42=ep:1\nu:7=ep:0\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new FilePositionStore(file));
        assertTrue(e.getMessage().contains("line 3"), e.getMessage());
    }

    @Test
    void theFileStoreKeepsTheDeviceIdOnALineOlderReadersTakeForAComment() throws IOException {
        Path file = dir.resolve("positions.txt");
        FilePositionStore store = new FilePositionStore(file);
        assertEquals(Optional.empty(), store.loadDevice());
        String device = DeviceIds.resolve(store);
        store.save(U42, Position.of("ep", 3));
        assertEquals(device, DeviceIds.resolve(new FilePositionStore(file)), "the same device after a restart");
        String text = Files.readString(file);
        assertTrue(text.contains("\n#device=" + device + "\n"), text);
        assertEquals(Map.of(U42, Position.of("ep", 3)), new FilePositionStore(file).loadAll());

        Files.writeString(file, "u:42=ep:1\n#device=not valid!\n");
        String replaced = DeviceIds.resolve(new FilePositionStore(file));
        assertNotEquals("not valid!", replaced, "an invalid id is replaced");
        assertEquals(Optional.of(replaced), new FilePositionStore(file).loadDevice());
    }

    @Test
    void aStoreThatKeepsNoDeviceGivesEachClientANewOne() {
        InMemoryPositionStore store = new InMemoryPositionStore();
        assertNotEquals(DeviceIds.resolve(store), DeviceIds.resolve(store));
    }

    @Test
    void aMissingFileIsAnEmptyStore() {
        assertEquals(Map.of(), new FilePositionStore(dir.resolve("none.txt")).loadAll());
    }
}
