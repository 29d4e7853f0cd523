package io.notify.cli.bench.gateway;

/**
 * A Prometheus text exposition, read just enough to sum the samples of one name whose labels
 * include given {@code key="value"} pairs. Label values here are simple (no escaped quotes).
 */
final class MetricsText {

    private final String text;

    MetricsText(String text) {
        this.text = text;
    }

    /** Sum of the samples named exactly {@code name} carrying every label pair of {@code labels} (k1, v1, k2, v2...). */
    double sum(String name, String... labels) {
        double total = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || !line.startsWith(name)) {
                continue;
            }
            String rest = line.substring(name.length());
            if (!rest.startsWith("{") && !rest.startsWith(" ")) {
                continue; // another metric whose name starts with this one
            }
            String labelPart = rest.startsWith("{") ? rest.substring(0, rest.indexOf('}') + 1) : "";
            boolean match = true;
            for (int i = 0; i + 1 < labels.length; i += 2) {
                if (!labelPart.contains(labels[i] + "=\"" + labels[i + 1] + "\"")) {
                    match = false;
                    break;
                }
            }
            if (match) {
                String value = rest.substring(labelPart.length()).trim().split(" ")[0];
                total += Double.parseDouble(value);
            }
        }
        return total;
    }
}
