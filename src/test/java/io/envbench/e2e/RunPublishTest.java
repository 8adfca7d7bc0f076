package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.envbench.measure.metrics.Influxd;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.metrics.Prometheusd;
import io.envbench.measure.results.JtlReader;
import io.envbench.measure.results.ResultFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The real {@code envbench run} of a bare-metal experiment (nginx-static twice, as two environments; no Docker) with
 * {@code --prometheus-port} scraped every second by a real Prometheus and {@code --influxdb-url} a real InfluxDB, both
 * the test's own on loopback. Then: Prometheus scraped the one endpoint without a failure from its first scrape to its
 * last, across both runs and the gap between them; the samples per label and environment, in both, are those of the
 * run's JTLs; every figure Prometheus scraped of a target's process tree and of the host is a row's of that run's
 * metrics CSV; InfluxDB has every row of every metrics CSV at its timestamp, tagged with the run's environment.
 */
@Isolated
class RunPublishTest {
    private static final String DB = "envbench-run";
    private static final List<String> ENVIRONMENTS = List.of("bare", "bare-again");

    @TempDir
    Path dir;

    @Test
    void aBareMetalExperimentIsInPrometheusAndInfluxDbAsInItsJtlsAndMetricsFiles() throws Exception {
        Path experiment = Files.writeString(dir.resolve("publish.yaml"), """
                name: publish
                target: nginx-static
                port: %d
                environments:
                  - name: bare
                    placement: bare
                  - name: bare-again
                    placement: bare
                repetitions: 1
                load:
                  http:
                    path: /page-4k.html
                    threads: 2
                    requestsPerSecond: 200
                    rampUpSeconds: 0
                    warmupSeconds: 0
                    durationSeconds: 6
                """.formatted(freePort()));
        int endpoint = freePort();
        try (Influxd influx = Influxd.start(Files.createDirectories(dir.resolve("influxdb")));
                Prometheusd prometheus =
                        Prometheusd.start(Files.createDirectories(dir.resolve("prometheus")), endpoint)) {
            Path run = dir.resolve("run");
            Path console = dir.resolve("console.txt");
            int exit = Cli.run(
                    console,
                    300,
                    "run",
                    experiment.toString(),
                    "-o",
                    run.toString(),
                    "--metrics-interval-ms",
                    "500",
                    "--prometheus-port",
                    Integer.toString(endpoint),
                    "--influxdb-url",
                    influx.url().toString(),
                    "--influxdb-db",
                    DB);
            String text = Files.readString(console);
            System.out.print(text);
            assertEquals(0, exit, text);
            assertTrue(text.contains("Prometheus: http://127.0.0.1:" + endpoint + "/metrics"), text);
            assertFalse(text.contains("dropped"), "InfluxDB took every point: " + text);

            // the run's own record: samples per label|environment, each metrics file's rows by environment
            Map<String, Long> fromJtl = new TreeMap<>();
            try (Stream<Path> jtls = Files.list(run.resolve("jtl"))) {
                for (Path jtl : jtls.filter(ResultFiles::isResultFile).toList()) {
                    JtlReader.read(jtl, s -> fromJtl.merge(s.label() + "|" + s.environment(), 1L, Long::sum));
                }
            }
            Map<String, List<MetricsFile.Row>> rows = new TreeMap<>();
            try (Stream<Path> csvs = Files.list(run.resolve("metrics"))) {
                for (Path csv : csvs.filter(p -> p.toString().endsWith(".csv")).toList()) {
                    MetricsFile.forEachRow(
                            csv,
                            r -> rows.computeIfAbsent(r.environment(), k -> new ArrayList<>())
                                    .add(r));
                }
            }
            assertEquals(
                    new TreeSet<>(ENVIRONMENTS),
                    fromJtl.keySet().stream()
                            .map(k -> k.substring(k.indexOf('|') + 1))
                            .collect(TreeSet::new, Set::add, Set::addAll),
                    "the JTLs' environments");
            assertEquals(new TreeSet<>(ENVIRONMENTS), rows.keySet(), "the metrics files' environments");

            // Prometheus: one endpoint up from the first scrape to the last, through both runs and between them
            JsonNode up = prometheus
                    .query("up{job=\"" + Prometheusd.JOB + "\"}[10m]")
                    .path(0)
                    .path("values");
            List<Double> ups = new ArrayList<>();
            up.forEach(v -> ups.add(Double.parseDouble(v.get(1).asText())));
            int first = ups.indexOf(1.0);
            int last = ups.lastIndexOf(1.0);
            assertTrue(first >= 0, "never scraped: " + up);
            assertEquals(
                    List.of(),
                    ups.subList(first, last + 1).stream().filter(v -> v != 1.0).toList(),
                    "a scrape failed while the experiment ran: " + up);
            double scrapedSeconds =
                    up.get(last).get(0).asDouble() - up.get(first).get(0).asDouble();
            assertTrue(scrapedSeconds >= 12, "scraped through both runs: " + scrapedSeconds + " s");

            Map<String, Long> fromPrometheus = new TreeMap<>();
            for (JsonNode s : prometheus.query("max_over_time(envbench_samples_total[10m])")) {
                fromPrometheus.put(
                        s.path("metric").path("label").asText() + "|"
                                + s.path("metric").path("environment").asText(),
                        (long) Double.parseDouble(s.path("value").get(1).asText()));
            }
            assertEquals(fromJtl, fromPrometheus, "samples per label|environment: JTLs vs Prometheus");

            int scraped = 0;
            for (String env : ENVIRONMENTS) {
                String column = "process." + env + ".cpu.pct";
                JsonNode series =
                        prometheus.query("envbench_target_process_cpu_percent{environment=\"" + env + "\"}[10m]");
                assertEquals(1, series.size(), env + "'s process tree in Prometheus: " + series);
                for (JsonNode v : series.path(0).path("values")) {
                    double value = Double.parseDouble(v.get(1).asText());
                    assertTrue(
                            rows.get(env).stream()
                                    .anyMatch(r -> r.values().get(column) != null
                                            && Math.abs(r.values().get(column) - value) < 0.0005),
                            env + ": scraped " + value + " is no row's " + column);
                    scraped++;
                }
            }
            List<Double> hostCpu = new ArrayList<>();
            rows.values().forEach(rs -> rs.forEach(r -> hostCpu.add(r.values().get("host.cpu.pct"))));
            for (JsonNode v :
                    prometheus.query("envbench_host_cpu_percent[10m]").path(0).path("values")) {
                double value = Double.parseDouble(v.get(1).asText());
                assertTrue(
                        hostCpu.stream().anyMatch(h -> h != null && Math.abs(h - value) < 0.0005),
                        "scraped host CPU " + value + " is no row's");
            }
            assertTrue(scraped >= 6, "target figures scraped: " + scraped);

            // InfluxDB: every row at its time, tagged with its run's environment; the samples as in the JTLs
            Map<String, Long> fromInflux = new TreeMap<>();
            for (JsonNode s : influx.query(
                            DB,
                            "SELECT sum(\"samples\") FROM \"envbench_response_time\" GROUP BY \"label\", \"environment\"")
                    .path("series")) {
                fromInflux.put(
                        s.path("tags").path("label").asText() + "|"
                                + s.path("tags").path("environment").asText(),
                        s.path("values").get(0).get(1).asLong());
            }
            assertEquals(fromJtl, fromInflux, "samples per label|environment: JTLs vs InfluxDB");
            int points = 0;
            for (var e : rows.entrySet()) {
                String env = e.getKey();
                Map<String, String[]> measured = new HashMap<>();
                measured.put("host.cpu.pct", new String[] {"envbench_host_cpu_percent", ""});
                measured.put(
                        "process.jmeter.cpu.pct",
                        new String[] {"envbench_process_cpu_percent", "\"process\" = 'jmeter' AND "});
                measured.put(
                        "process." + env + ".cpu.pct",
                        new String[] {"envbench_target_process_cpu_percent", "\"environment\" = '" + env + "' AND "});
                for (MetricsFile.Row r : e.getValue()) {
                    for (var m : measured.entrySet()) {
                        Double expected = r.values().get(m.getKey());
                        if (expected == null || !Double.isFinite(expected)) {
                            continue;
                        }
                        JsonNode values = influx.query(
                                        DB,
                                        "SELECT \"value\" FROM \"" + m.getValue()[0] + "\" WHERE " + m.getValue()[1]
                                                + "\"running\" = '" + env + "' AND time = " + r.epochMs() + "ms")
                                .path("series")
                                .path(0)
                                .path("values");
                        assertEquals(1, values.size(), m.getKey() + " at " + r.epochMs() + " in " + env);
                        assertEquals(
                                expected, values.get(0).get(1).asDouble(), 0.0005, m.getKey() + " at " + r.epochMs());
                        points++;
                    }
                }
            }
            int rowCount = rows.values().stream().mapToInt(List::size).sum();
            assertTrue(points >= rowCount * 2, "points checked: " + points + " of " + rowCount + " rows");
            System.out.printf(
                    "published: samples %s; %d target figures scraped, %d of %d rows' figures in InfluxDB%n",
                    fromJtl, scraped, points, rowCount);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
