package io.notify.e2e.observability;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads, simply and exactly enough for our own dashboards and
 * rules: label matchers, label lists ({@code by (...)}, {@code on (...)}), ranges, strings, numbers
 * and Grafana variables are removed, then every identifier that is not a function call or a PromQL
 * keyword is a metric name. Names are compared without the {@code _bucket}/{@code _count}/{@code _sum}
 * suffix of histogram series ({@link #base}).
 */
final class PromQlNames {

    private static final Pattern IDENT = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
            "and", "or", "unless", "bool", "offset", "inf", "nan");

    private PromQlNames() {
    }

    static Set<String> of(String expr) {
        String s = expr
                .replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")          // string literals (label values, regexes)
                .replaceAll("\\{[^}]*}", " ")                            // label matchers
                .replaceAll("\\[[^]]*]", " ")                            // ranges and subqueries
                .replaceAll("\\$\\{?[a-zA-Z_]+}?", " ")                 // Grafana variables ($__rate_interval, ${node})
                .replaceAll("(?i)\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ") // label lists
                .replaceAll("\\b\\d+(\\.\\d+)?(e[+-]?\\d+)?[smhdwy]?\\b", " "); // numbers and durations
        Set<String> names = new TreeSet<>();
        Matcher m = IDENT.matcher(s);
        while (m.find()) {
            String word = m.group();
            int next = m.end();
            while (next < s.length() && Character.isWhitespace(s.charAt(next))) {
                next++;
            }
            boolean call = next < s.length() && s.charAt(next) == '(';
            if (!call && !KEYWORDS.contains(word.toLowerCase())) {
                names.add(base(word));
            }
        }
        return names;
    }

    /** The name without a histogram series suffix. */
    static String base(String name) {
        return name.replaceFirst("_(bucket|count|sum)$", "");
    }
}
