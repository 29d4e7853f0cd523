package io.notify.e2e.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * ops/prometheus/alerts.yml is valid Prometheus ({@code promtool check rules}), each alert fires on
 * its synthetic series and stays quiet on a healthy one ({@code promtool test rules} with
 * alerts-test.yml), and each alert carries what an operator needs: a {@code for:}, a severity and
 * a summary and description that name the runbook action.
 */
class AlertRulesTest {

    @Test
    void promtoolAcceptsTheRules() throws Exception {
        Promtool.Result r = Promtool.run(Promtool.ALERTS.getParent(), null, "check", "rules", Promtool.ALERTS.toString());
        assertTrue(r.ok(), "promtool check rules " + Promtool.ALERTS + ":\n" + r.output());
    }

    @Test
    void everyAlertFiresOnItsSeriesAndStaysQuietWhenHealthy() throws Exception {
        Promtool.Result r = Promtool.run(Promtool.ALERTS.getParent(), null, "test", "rules", Promtool.ALERTS_TEST.toString());
        assertTrue(r.ok(), "promtool test rules " + Promtool.ALERTS_TEST + ":\n" + r.output());
    }

    @Test
    void everyAlertHasAForASeverityAndARunbookAction() throws Exception {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        List<String> problems = new ArrayList<>();
        Set<String> alerts = new TreeSet<>();
        for (JsonNode group : yaml.readTree(Promtool.ALERTS.toFile()).path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                String name = rule.path("alert").asText();
                alerts.add(name);
                if (rule.path("for").asText().isEmpty()) {
                    problems.add(name + ": no for:");
                }
                if (!Set.of("page", "warning", "ticket").contains(rule.path("labels").path("severity").asText())) {
                    problems.add(name + ": severity is not page, warning or ticket");
                }
                if (rule.path("annotations").path("summary").asText().isEmpty()
                        || !rule.path("annotations").path("description").asText().contains("Action:")) {
                    problems.add(name + ": needs a summary and a description with \"Action:\"");
                }
            }
        }
        assertEquals(List.of(), problems);
        // the alerts test covers every alert: each name appears in alerts-test.yml
        String tests = java.nio.file.Files.readString(Promtool.ALERTS_TEST);
        assertEquals(Set.of(), alerts.stream().filter(a -> !tests.contains("alertname: " + a)).collect(java.util.stream.Collectors.toSet()),
                "alerts without a promtool test");
        assertTrue(alerts.size() >= 6, "the six alerts of docs/observability.md: " + alerts);
    }
}
