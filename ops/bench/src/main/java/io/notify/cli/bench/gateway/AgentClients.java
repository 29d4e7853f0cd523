package io.notify.cli.bench.gateway;

import io.notify.platform.DevKeys;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The clients of one load agent: users {@code first .. first+count-1}, each with a token minted
 * with the run's dev HMAC secret (read from the work dir, never passed on a command line), a
 * source address chosen by index, and its stored position from the positions file, if any.
 */
final class AgentClients {

    static final Duration TOKEN_TTL = Duration.ofHours(3);

    private AgentClients() {
    }

    static List<ClientConn> create(Path workDir, int first, int count, String sourceList, Path positionsFile)
            throws IOException {
        DevKeys keys = DevKeys.existing(workDir);
        List<InetAddress> sources = new ArrayList<>();
        for (String s : sourceList.split(",")) {
            sources.add(InetAddress.getByName(s));
        }
        Map<Integer, String[]> positions = positionsFile == null ? Map.of() : readPositions(positionsFile);
        List<ClientConn> clients = new ArrayList<>(count);
        for (int i = first; i < first + count; i++) {
            String user = BenchUsers.user(i);
            String[] p = positions.get(i);
            ResumeTally tally = p == null ? new ResumeTally(null, 0) : new ResumeTally(p[0], Long.parseLong(p[1]));
            clients.add(new ClientConn(i, user, sources.get(i % sources.size()), keys.token(user, TOKEN_TTL), tally));
        }
        return clients;
    }

    /** Lines of "index epoch seq". */
    static Map<Integer, String[]> readPositions(Path file) throws IOException {
        Map<Integer, String[]> out = new HashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] f = line.trim().split(" ");
            if (f.length == 3) {
                out.put(Integer.parseInt(f[0]), new String[] {f[1], f[2]});
            }
        }
        return out;
    }
}
