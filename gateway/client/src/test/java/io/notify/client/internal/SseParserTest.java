package io.notify.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseParserTest {

    private final List<String> out = new ArrayList<>();
    private final SseParser parser = new SseParser(new SseParser.Sink() {
        @Override
        public void message(String id, String data) {
            out.add((id == null ? "" : "[" + id + "]") + data);
        }

        @Override
        public void retry(long millis) {
            out.add("retry " + millis);
        }
    }, 100);

    private void feed(String... lines) {
        for (String l : lines) {
            parser.line(l);
        }
    }

    @Test
    void theGatewaysBytes() {
        feed("retry: 1000", "", "data: {\"t\":\"welcome\"}", "", "id: ep:17", "data: {\"t\":\"event\"}", "", ":", "",
                "data: {\"t\":\"ping\"}", "");
        assertEquals(List.of("retry 1000", "{\"t\":\"welcome\"}", "[ep:17]{\"t\":\"event\"}", "{\"t\":\"ping\"}"), out);
    }

    @Test
    void specCorners() {
        feed("data:no-space", "data:  two spaces", "", "data", "", "event: x", "id", "data: y", "", "retry: 12x", "bogus: 1",
                "retry:250", "");
        assertEquals(List.of("no-space\n two spaces", "", "[]y", "retry 250"), out);
    }

    @Test
    void aMessageWithoutDataIsNotDispatched() {
        feed("id: ep:1", "", ": comment", "");
        assertEquals(List.of(), out);
    }

    @Test
    void oversizedDataIsRefused() {
        assertThrows(IllegalStateException.class, () -> feed("data: " + "x".repeat(101)));
    }
}
