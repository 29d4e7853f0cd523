package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CsvTest {

    @Test
    void quotesOnlyFieldsThatNeedIt() {
        assertEquals("plain", Csv.field("plain"));
        assertEquals("", Csv.field(null));
        assertEquals("", Csv.field(""));
        assertEquals("with space", Csv.field("with space"));
        assertEquals("\"a,b\"", Csv.field("a,b"));
        assertEquals("\"say \"\"hi\"\"\"", Csv.field("say \"hi\""));
        assertEquals("\"two\nlines\"", Csv.field("two\nlines"));
        assertEquals("\"cr\rhere\"", Csv.field("cr\rhere"));
        assertEquals("\"{\"\"k\"\":\"\"a,b\"\"}\"", Csv.field("{\"k\":\"a,b\"}"));
    }

    @Test
    void recordsEndWithCrlf() {
        StringBuilder sb = new StringBuilder();
        Csv.appendRecord(sb, Arrays.asList("a", null, "b,c", "d\"e"));
        assertEquals("a,,\"b,c\",\"d\"\"e\"\r\n", sb.toString());
    }
}
