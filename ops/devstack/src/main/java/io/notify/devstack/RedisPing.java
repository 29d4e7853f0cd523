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
        return ping(host, port, null, timeout);
    }

    /**
     * Sends an inline {@code PING} (after {@code AUTH password} when a password is given) and returns
     * the reply to the PING, e.g. {@code "+PONG"}; a refused AUTH is returned as its error line.
     */
    static String ping(String host, int port, String password, Duration timeout) throws IOException {
        int millis = (int) Math.max(1, timeout.toMillis());
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), millis);
            socket.setSoTimeout(millis);
            OutputStream out = socket.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            if (password != null) {
                // RESP, not inline: the password may hold spaces or quotes
                byte[] pw = password.getBytes(StandardCharsets.UTF_8);
                out.write(("*2\r\n$4\r\nAUTH\r\n$" + pw.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(pw);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String auth = in.readLine();
                if (!"+OK".equals(auth)) {
                    return auth == null ? "AUTH: no reply" : auth;
                }
            }
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String line = in.readLine();
            if (line == null) {
                throw new IOException("Redis at " + host + ":" + port + " closed the connection without a reply");
            }
            return line;
        }
    }
}
