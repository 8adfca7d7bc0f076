package io.envbench.jmeter.listeners;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.GuiTests;
import io.envbench.measure.influxdb.InfluxDbWriter;
import io.envbench.measure.metrics.HostProbe;
import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.MetricName.Family;
import io.envbench.measure.prometheus.ExposedName;
import io.envbench.measure.prometheus.PrometheusEndpoint;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Grafana dashboards in {@code docs/grafana} parse (Jackson), show each environment side by side (a panel repeated
 * per environment), and name only series EnvBench makes: every metric, label and field their queries use is one the
 * Prometheus endpoint served in a real scrape here (host, JMeter) or, for what needs a running container or target,
 * one the exporter's naming ({@link ExposedName}) gives a catalogue column.
 */
class GrafanaDashboardsTest {
    static final Path PROMETHEUS_DASHBOARD = Path.of("..", "docs", "grafana", "envbench-prometheus.json");
    static final Path INFLUXDB_DASHBOARD = Path.of("..", "docs", "grafana", "envbench-influxdb.json");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern NAME = Pattern.compile("\\benvbench_[a-z0-9_]+");
    /** A metric and its label matchers: {@code envbench_x{a="b",c=~"d"}}. */
    private static final Pattern SELECTOR = Pattern.compile("(envbench_[a-z0-9_]+)\\{([^}]*)}");

    private static final Pattern MATCHER = Pattern.compile("([a-z_]+)\\s*(=~|!=|!~|=)\\s*\"([^\"]*)\"");

    @TempDir
    Path dir;

    @Test
    void thePrometheusDashboardNamesOnlyWhatTheEndpointServes() throws Exception {
        JsonNode d = JSON.readTree(PROMETHEUS_DASHBOARD.toFile());
        assertSideBySide(d);
        Set<String> scraped = scrapedNames();
        Map<String, Set<String>> catalogue = prometheusCatalogue();
        List<String> exprs = queries(d, "expr");
        exprs.add(d.at("/templating/list/1/query/query").asText());
        assertTrue(exprs.size() >= 10, "queries: " + exprs);
        Set<String> used = new TreeSet<>();
        for (String q : exprs) {
            Matcher n = NAME.matcher(q);
            while (n.find()) {
                String name = n.group();
                used.add(name);
                boolean needsATarget = name.matches("envbench_(container|target|service)_.*");
                assertTrue(
                        scraped.contains(name) || needsATarget && catalogue.containsKey(name),
                        name + " in " + q + " is not served (scraped: " + scraped + ")");
            }
            Matcher s = SELECTOR.matcher(q);
            while (s.find()) {
                Set<String> labels = catalogue.getOrDefault(s.group(1), Set.of());
                Matcher m = MATCHER.matcher(s.group(2));
                while (m.find()) {
                    assertTrue(labels.contains(m.group(1)), s.group(1) + " has no label " + m.group(1) + ": " + q);
                    if (m.group(1).equals("process") && m.group(2).equals("=")) {
                        assertTrue(watchedProcesses().contains(m.group(3)), "no process " + m.group(3) + ": " + q);
                    }
                }
            }
            for (String by : byLabels(q)) {
                assertTrue(
                        by.equals("le") || catalogue.values().stream().anyMatch(l -> l.contains(by)),
                        "by (" + by + ") is no label: " + q);
            }
        }
        // the figures the issue asks for are on it
        for (String wanted : List.of(
                PrometheusEndpoint.SAMPLES + "_total",
                PrometheusEndpoint.RESPONSE_TIME + "_bucket",
                "envbench_host_cpu_percent",
                "envbench_process_cpu_percent",
                "envbench_container_cpu_percent",
                "envbench_target_process_cpu_percent",
                "envbench_host_mem_used_bytes")) {
            assertTrue(used.contains(wanted), wanted + " missing from " + used);
        }
        assertTrue(exprs.stream().anyMatch(q -> q.startsWith("histogram_quantile(0.9,")), "no p90 from buckets");
        assertTrue(exprs.stream().anyMatch(q -> q.contains("process=\"docker-proxy\"")), "no docker-proxy CPU");
    }

    @Test
    void theInfluxDbDashboardNamesOnlyWhatTheWriterWrites() throws Exception {
        JsonNode d = JSON.readTree(INFLUXDB_DASHBOARD.toFile());
        assertSideBySide(d);
        Set<String> scraped = scrapedNames();
        Map<String, Set<String>> catalogue = prometheusCatalogue();
        Map<String, Set<String>> tagsOf = new HashMap<>();
        catalogue.forEach((name, labels) -> {
            Set<String> tags = new HashSet<>(labels);
            tags.add(InfluxDbWriter.RUNNING);
            tagsOf.put(name, tags);
        });
        tagsOf.put(InfluxDbWriter.RESPONSE_TIME, Set.of(InfluxDbWriter.LABEL, InfluxDbWriter.ENVIRONMENT));
        Set<String> responseFields = Set.of(
                InfluxDbWriter.SAMPLES,
                InfluxDbWriter.ERRORS,
                InfluxDbWriter.ELAPSED_SUM_MS,
                InfluxDbWriter.ELAPSED_MIN_MS,
                InfluxDbWriter.ELAPSED_MAX_MS);
        List<String> queries = influxQueries(d);
        assertTrue(queries.size() >= 10, "queries: " + queries);
        Pattern from = Pattern.compile("FROM \"([^\"]+)\"");
        Pattern quoted = Pattern.compile("\"([^\"]+)\"");
        for (String q : queries) {
            Matcher f = from.matcher(q);
            assertTrue(f.find(), "no FROM: " + q);
            String measurement = f.group(1);
            assertTrue(
                    measurement.equals(InfluxDbWriter.RESPONSE_TIME)
                            || scraped.contains(measurement)
                            || measurement.matches("envbench_(container|target|service)_.*")
                                    && catalogue.containsKey(measurement),
                    measurement + " is not written: " + q);
            Set<String> allowed = new HashSet<>(tagsOf.get(measurement));
            allowed.addAll(
                    measurement.equals(InfluxDbWriter.RESPONSE_TIME) ? responseFields : Set.of(InfluxDbWriter.VALUE));
            Matcher k = quoted.matcher(q.replace("\"" + measurement + "\"", ""));
            while (k.find()) {
                assertTrue(
                        allowed.contains(k.group(1)), k.group(1) + " is no field or tag of " + measurement + ": " + q);
            }
        }
    }

    /** A row of panels repeated per environment, side by side, over a multi-value environment variable. */
    private static void assertSideBySide(JsonNode d) {
        JsonNode env = d.at("/templating/list/1");
        assertEquals("environment", env.path("name").asText());
        assertTrue(env.path("multi").asBoolean() && env.path("includeAll").asBoolean());
        List<JsonNode> repeated = new ArrayList<>();
        d.path("panels").forEach(p -> {
            if (p.path("repeat").asText().equals("environment")) {
                repeated.add(p);
            }
        });
        assertFalse(repeated.isEmpty(), "no panel repeated per environment");
        repeated.forEach(p -> assertEquals(
                "h", p.path("repeatDirection").asText(), p.path("title").asText()));
        Set<Integer> ids = new HashSet<>();
        d.path("panels").forEach(p -> assertTrue(ids.add(p.path("id").asInt()), "panel id twice: " + p.path("id")));
    }

    private static List<String> queries(JsonNode d, String field) {
        List<String> out = new ArrayList<>();
        d.path("panels")
                .forEach(p ->
                        p.path("targets").forEach(t -> out.add(t.path(field).asText())));
        out.forEach(q -> assertFalse(q.isBlank(), "an empty query"));
        return out;
    }

    /** The panels' InfluxQL and the environment variable's. */
    static List<String> influxQueries(JsonNode d) {
        List<String> out = queries(d, "query");
        out.add(d.at("/templating/list/1/query").asText());
        return out;
    }

    private static List<String> byLabels(String promql) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("by \\(([^)]*)\\)").matcher(promql);
        while (m.find()) {
            for (String l : m.group(1).split(",")) {
                out.add(l.trim());
            }
        }
        return out;
    }

    private static Set<String> watchedProcesses() {
        Set<String> p = new HashSet<>(HostProbe.WATCHED);
        p.add(HostProbe.JVM_ROLE);
        return p;
    }

    /**
     * Every name the exporter gives a catalogue column, with its labels: the plain columns, and each family's members
     * with an owner of each kind (a disk, an interface, JMeter, a bare-metal environment, a service, a container).
     */
    static Map<String, Set<String>> prometheusCatalogue() {
        List<String> columns = new ArrayList<>();
        for (MetricName m : MetricName.values()) {
            columns.add(m.column());
        }
        columns.add("host.cpu0.pct");
        columns.add(Family.CORE.of("0", MetricName.IRQ_PCT));
        for (String member : ExposedName.MEMBERS) {
            columns.add(Family.DISK.of("sda", member));
            columns.add(Family.NET.of("eth0", member));
            columns.add(Family.CONTAINER.of("docker", member));
            columns.add(Family.PROCESS.of(HostProbe.JVM_ROLE, member));
            columns.add(Family.PROCESS.of("bare", member));
            columns.add(Family.PROCESS.of("app/db", member));
        }
        Map<String, Set<String>> out = new HashMap<>();
        for (String c : columns) {
            ExposedName n = ExposedName.of(c, "docker");
            out.computeIfAbsent(n.name(), k -> new HashSet<>())
                    .addAll(n.labels().keySet());
        }
        Set<String> sampleLabels = Set.of(PrometheusEndpoint.LABEL, PrometheusEndpoint.ENVIRONMENT);
        for (String suffix : List.of("_bucket", "_sum", "_count")) {
            out.put(PrometheusEndpoint.RESPONSE_TIME + suffix, sampleLabels);
        }
        out.put(PrometheusEndpoint.SAMPLES + "_total", sampleLabels);
        out.put(PrometheusEndpoint.ERRORS + "_total", sampleLabels);
        return out;
    }

    /** The metric names a real scrape of the Resource Monitor serves on this machine, one sample fed. */
    private Set<String> scrapedNames() throws Exception {
        GuiTests.initJMeter();
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        int port = ResourceMonitorPrometheusTest.freePort();
        ResourceMonitor m = new ResourceMonitor();
        m.setInterval("100");
        m.setFilename(dir.resolve("metrics-" + port + ".csv").toString());
        m.setPrometheusPort(Integer.toString(port));
        List<String> told = new ArrayList<>();
        m.onTellUser(told::add);
        m.onFailureStop(() -> told.add("stopped"));
        try {
            m.testStarted();
            assertTrue(told.isEmpty(), told.toString());
            ResourceMonitorPrometheusTest.feed(m, "home", "bare", 12, false);
            // every name of 20 scrapes over 2 s: a process's figures come once it has been read twice
            Set<String> names = new TreeSet<>();
            for (int i = 0; i < 20; i++) {
                Thread.sleep(100);
                for (String line : ResourceMonitorPrometheusTest.scrape(port).split("\n")) {
                    if (!line.startsWith("#") && !line.isBlank()) {
                        names.add(line.split("[{ ]", 2)[0]);
                    }
                }
            }
            return names;
        } finally {
            m.testEnded();
            JMeterUtils.getJMeterProperties().remove(EnvBenchProperties.PROMETHEUS_PORT);
        }
    }
}
