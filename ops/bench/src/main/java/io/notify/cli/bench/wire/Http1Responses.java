package io.notify.cli.bench.wire;

import java.io.IOException;
import java.io.InputStream;

/** The load generators' HTTP/1.1 on a plain socket: one response read off a keep-alive connection. */
public final class Http1Responses {

    private Http1Responses() {
    }

    /** Reads one response (status line, headers, a Content-Length body) and returns its status. */
    public static int status(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int status = -1;
        long contentLength = 0;
        boolean first = true;
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed mid-response");
            }
            if (c == '\n') {
                String l = line.toString().trim();
                line.setLength(0);
                if (first) {
                    status = Integer.parseInt(l.split(" ")[1]);
                    first = false;
                } else if (l.isEmpty()) {
                    break;
                } else if (l.regionMatches(true, 0, "content-length:", 0, 15)) {
                    contentLength = Long.parseLong(l.substring(15).trim());
                }
            } else {
                line.append((char) c);
            }
        }
        in.skipNBytes(contentLength);
        return status;
    }
}
