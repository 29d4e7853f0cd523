package io.notify.devstack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A Redis {@code PING} over a plain socket, so this module needs no Redis client library. */
final class RedisPing {

    private RedisPing() {
    }

    /** Sends an inline {@code PING} and returns the first reply line, e.g. {@code "+PONG"}. */
    static String ping(String host, int port, Duration timeout) throws IOException {
        int millis = (int) Math.max(1, timeout.toMillis());
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), millis);
            socket.setSoTimeout(millis);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            String line = in.readLine();
            if (line == null) {
                throw new IOException("Redis at " + host + ":" + port + " closed the connection without a reply");
            }
            return line;
        }
    }
}
