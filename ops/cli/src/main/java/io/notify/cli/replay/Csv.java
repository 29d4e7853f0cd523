package io.notify.cli.replay;

/**
 * RFC 4180 fields: a field holding a comma, a double quote, CR or LF is enclosed in double quotes
 * and its quotes are doubled; any other field is written as is. Records end with CRLF.
 */
final class Csv {

    static final String RECORD_END = "\r\n";

    private Csv() {
    }

    static String field(String value) {
        if (value == null || value.isEmpty()) {
            return "";
        }
        boolean quote = false;
        for (int i = 0; i < value.length() && !quote; i++) {
            char c = value.charAt(i);
            quote = c == ',' || c == '"' || c == '\r' || c == '\n';
        }
        return quote ? '"' + value.replace("\"", "\"\"") + '"' : value;
    }

    static void appendRecord(StringBuilder out, Iterable<String> fields) {
        boolean first = true;
        for (String f : fields) {
            if (!first) {
                out.append(',');
            }
            out.append(field(f));
            first = false;
        }
        out.append(RECORD_END);
    }
}
