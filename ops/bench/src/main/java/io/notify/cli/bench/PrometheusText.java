package io.notify.cli.bench;

import io.notify.platform.ServiceProcess;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * Sample values read out of a Prometheus text exposition (what a service's {@code /metrics}
 * answers), so the benchmark measures the app under test from outside, as an operator would.
 */
public record PrometheusText(String text) {

    /**
     * A gateway's /metrics is on its management port, whose accepts are never stopped, but it is
     * answered by the same I/O threads that a storm keeps busy: a scrape is given long enough for that.
     */
    private static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(60);

    /** A service's {@code /metrics} now; anything but 200 is an error naming its log. */
    public static PrometheusText scrape(ServiceProcess service) throws IOException, InterruptedException {
        HttpResponse<String> r = service.metrics(SCRAPE_TIMEOUT);
        if (r.statusCode() != 200) {
            throw new IOException(service.name() + " /metrics answered " + r.statusCode() + "; see " + service.logFile());
        }
        return new PrometheusText(r.body());
    }

    /** {@link #sum} over several scrapes (e.g. every gateway, every instance). */
    public static double sum(List<PrometheusText> scrapes, String name, String... labels) {
        return scrapes.stream().mapToDouble(m -> m.sum(name, labels)).sum();
    }

    /**
     * The sum of every sample of {@code name} (exact name, e.g. {@code notify_fanout_undelivered_total})
     * whose labels include all of {@code labels} (pairs: key, value, ...); 0 when there is none.
     */
    public double sum(String name, String... labels) {
        double[] total = {0};
        each(name, labels, (found, value) -> total[0] += value);
        return total[0];
    }

    /**
     * The cumulative bucket counts of histogram {@code name} (its {@code <name>_bucket} samples,
     * by upper bound {@code le}; {@code +Inf} is {@link Double#POSITIVE_INFINITY}) over every series
     * whose labels include all of {@code labels}, summed per bound.
     */
    public NavigableMap<Double, Double> buckets(String name, String... labels) {
        NavigableMap<Double, Double> out = new TreeMap<>();
        each(name + "_bucket", labels, (found, value) -> {
            String le = found.get("le");
            if (le != null) {
                double bound = le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
                out.merge(bound, value, Double::sum);
            }
        });
        return out;
    }

    private void each(String name, String[] labels, BiConsumer<Map<String, String>, Double> sample) {
        if (labels.length % 2 != 0) {
            throw new IllegalArgumentException("labels come in key/value pairs");
        }
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#") || !line.startsWith(name)) {
                continue;
            }
            int at = name.length();
            if (at < line.length() && line.charAt(at) != '{' && line.charAt(at) != ' ') {
                continue; // a longer name sharing this prefix
            }
            Map<String, String> found = new LinkedHashMap<>();
            if (at < line.length() && line.charAt(at) == '{') {
                at = parseLabels(line, at + 1, found);
            }
            if (matches(found, labels)) {
                sample.accept(found, Double.parseDouble(line.substring(at).trim().split("\\s+")[0]));
            }
        }
    }

    private static boolean matches(Map<String, String> found, String[] labels) {
        for (int i = 0; i < labels.length; i += 2) {
            if (!labels[i + 1].equals(found.get(labels[i]))) {
                return false;
            }
        }
        return true;
    }

    /** Parses {@code k="v",...}} from {@code at}; returns the index after the closing brace. */
    private static int parseLabels(String line, int at, Map<String, String> into) {
        int i = at;
        while (i < line.length() && line.charAt(i) != '}') {
            int eq = line.indexOf('=', i);
            String key = line.substring(i, eq).trim();
            StringBuilder value = new StringBuilder();
            int j = eq + 2; // past ="
            while (line.charAt(j) != '"') {
                char c = line.charAt(j);
                if (c == '\\') {
                    char next = line.charAt(++j);
                    value.append(next == 'n' ? '\n' : next);
                } else {
                    value.append(c);
                }
                j++;
            }
            into.put(key, value.toString());
            i = j + 1;
            if (i < line.length() && line.charAt(i) == ',') {
                i++;
            }
        }
        return i + 1;
    }
}
