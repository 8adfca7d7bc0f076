package io.envbench.jmeter.listeners;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.envbench.jmeter.GuiTests;
import io.envbench.measure.influxdb.InfluxDbWriter;
import io.envbench.measure.metrics.Influxd;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.prometheus.ExposedName;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real InfluxDB 1.6 (Debian's {@code influxd}, a process of the test's own on 127.0.0.1) takes the Resource
 * Monitor's line protocol while samples arrive for a few seconds; then InfluxQL answers: every figure of every row of
 * the metrics CSV of the same run is a point at the row's timestamp, under its Prometheus-style name and labels and
 * tagged with the environments running, equal to the file's value within the file's rounding (three decimals: 0.0005,
 * times the unit's scale); and the samples, errors and elapsed sum, least and most per label and environment are
 * exactly those fed; every query of the InfluxDB dashboard ({@code docs/grafana/envbench-influxdb.json}) runs.
 */
class RealInfluxDbTest {
    @TempDir
    Path dir;

    @Test
    void influxDbHoldsEveryFigureOfTheMetricsFileAndEverySample() throws Exception {
        GuiTests.initJMeter();
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        Path csv = dir.resolve("metrics.csv");
        Map<String, List<Long>> fed = new HashMap<>();
        Map<String, Long> errors = new HashMap<>();
        ResourceMonitor monitor = new ResourceMonitor();
        try (Influxd influx = Influxd.start(dir)) {
            AtomicInteger stops = new AtomicInteger();
            List<String> told = new ArrayList<>();
            monitor.setInterval("500");
            monitor.setFilename(csv.toString());
            monitor.setInfluxDbUrl(influx.url().toString());
            monitor.onFailureStop(stops::incrementAndGet);
            monitor.onTellUser(told::add);
            InfluxDbWriter writer;
            try {
                monitor.testStarted();
                assertEquals(0, stops.get(), told.toString());
                writer = monitor.influxDb();
                assertNotNull(writer, told.toString());
                for (int round = 0; round < 3; round++) {
                    for (int i = 0; i < 40; i++) {
                        feed(monitor, fed, errors, "home", "docker", 5 + (i * 37L) % 200, true);
                        feed(monitor, fed, errors, "home", "bare", 3 + (i * 53L) % 120, true);
                        feed(monitor, fed, errors, "login", "bare", 20 + (i * 71L) % 400, i % 10 != 0);
                    }
                    Thread.sleep(1000);
                }
            } finally {
                monitor.testEnded(); // the last samples are sent, within 10 s
            }
            assertEquals(0, writer.dropped(), "points dropped; influxd said: " + influx.log());
            assertTrue(writer.written() > 0);

            String db = writer.target().database();
            // every figure of the file, at its row's time
            int checked = 0;
            List<MetricsFile.Row> rows = new ArrayList<>();
            MetricsFile.forEachRow(csv, rows::add);
            assertTrue(rows.size() >= 4, "rows: " + rows.size());
            Map<String, Map<Long, Double>> points = allTickPoints(influx, db);
            for (MetricsFile.Row row : rows) {
                for (var v : row.values().entrySet()) {
                    if (v.getValue() == null || !Double.isFinite(v.getValue())) {
                        continue;
                    }
                    ExposedName n = ExposedName.of(v.getKey(), row.environment());
                    Map<String, String> tags = new TreeMap<>(n.labels());
                    tags.put(InfluxDbWriter.RUNNING, row.environment());
                    String series = n.name() + tags;
                    Double got = points.getOrDefault(series, Map.of()).get(row.epochMs());
                    assertNotNull(got, v.getKey() + " at " + row.epochMs() + ": no point " + series);
                    assertEquals(v.getValue() * n.scale(), got, 0.0005 * n.scale() + 1e-9, series);
                    checked++;
                }
            }
            assertTrue(checked > rows.size() * 5, "figures checked: " + checked);

            // the samples: summed over the intervals, exactly what was fed
            JsonNode sums = influx.query(
                    db,
                    "SELECT sum(\"samples\"), sum(\"errors\"), sum(\"elapsed_sum_ms\"), min(\"elapsed_min_ms\"),"
                            + " max(\"elapsed_max_ms\") FROM \"" + InfluxDbWriter.RESPONSE_TIME
                            + "\" GROUP BY \"label\", \"environment\"");
            Map<String, List<Long>> got = new HashMap<>();
            for (JsonNode s : sums.path("series")) {
                JsonNode row = s.path("values").get(0);
                got.put(
                        s.path("tags").path("label").asText() + "|"
                                + s.path("tags").path("environment").asText(),
                        List.of(
                                row.get(1).asLong(),
                                row.get(2).asLong(),
                                row.get(3).asLong(),
                                row.get(4).asLong(),
                                row.get(5).asLong()));
            }
            assertEquals(fed.keySet(), got.keySet(), "series by label and environment");
            for (var e : fed.entrySet()) {
                List<Long> ms = e.getValue();
                assertEquals(
                        List.of(
                                (long) ms.size(),
                                errors.getOrDefault(e.getKey(), 0L),
                                ms.stream().mapToLong(Long::longValue).sum(),
                                ms.stream().mapToLong(Long::longValue).min().orElseThrow(),
                                ms.stream().mapToLong(Long::longValue).max().orElseThrow()),
                        got.get(e.getKey()),
                        e.getKey() + ": samples, errors, sum, min, max");
            }
            // the dashboard's queries, as Grafana sends them for the environments fed: InfluxQL this InfluxDB runs
            JsonNode dashboard = new ObjectMapper().readTree(GrafanaDashboardsTest.INFLUXDB_DASHBOARD.toFile());
            int answered = 0;
            for (String q : GrafanaDashboardsTest.influxQueries(dashboard)) {
                String sent = q.replace("$timeFilter", "time > now() - 1h")
                        .replace("$__interval_ms", "1000")
                        .replace("$__interval", "1s")
                        .replace("/^$environment$/", "/^(bare|docker)$/")
                        .replace("'$environment'", "'bare'");
                JsonNode r = influx.query(db, sent); // fails on an error
                answered += r.path("series").size() > 0 ? 1 : 0;
            }
            // those over samples and host or JMeter figures have data; the container and target ones need Docker
            assertTrue(answered >= 6, "dashboard queries with data: " + answered);
            JsonNode throughput = influx.query(
                    db,
                    "SELECT sum(\"samples\") FROM \"" + InfluxDbWriter.RESPONSE_TIME
                            + "\" WHERE time > now() - 1h GROUP BY \"environment\"");
            Set<String> environments = new TreeSet<>();
            throughput
                    .path("series")
                    .forEach(x ->
                            environments.add(x.path("tags").path("environment").asText()));
            assertEquals(Set.of("bare", "docker"), environments, "series tagged with each environment");
            System.out.printf(
                    "InfluxDB: %d dashboard queries with data; %d points written, %d rows x columns agree with the CSV, samples %s%n",
                    answered, writer.written(), checked, got);
        }
    }

    /** Every tick point: "name{tags}" to time (ms) to value. */
    static Map<String, Map<Long, Double>> allTickPoints(Influxd influx, String db) throws Exception {
        JsonNode r = influx.query(db, "SELECT \"value\" FROM /^" + ExposedName.PREFIX + "/ GROUP BY *");
        Map<String, Map<Long, Double>> out = new HashMap<>();
        for (JsonNode s : r.path("series")) {
            Map<String, String> tags = new TreeMap<>();
            s.path("tags").fields().forEachRemaining(t -> {
                if (!t.getValue().asText().isEmpty()) {
                    tags.put(t.getKey(), t.getValue().asText());
                }
            });
            Map<Long, Double> values =
                    out.computeIfAbsent(s.path("name").asText() + tagsKey(tags), k -> new HashMap<>());
            for (JsonNode p : s.path("values")) {
                if (!p.get(1).isNull()) {
                    values.put(p.get(0).asLong(), p.get(1).asDouble());
                }
            }
        }
        return out;
    }

    private static String tagsKey(Map<String, String> tags) {
        return tags.toString();
    }

    private static void feed(
            ResourceMonitor m,
            Map<String, List<Long>> fed,
            Map<String, Long> errors,
            String label,
            String environment,
            long ms,
            boolean ok) {
        ResourceMonitorPrometheusTest.feed(m, label, environment, ms, ok);
        fed.computeIfAbsent(label + "|" + environment, k -> new ArrayList<>()).add(ms);
        if (!ok) {
            errors.merge(label + "|" + environment, 1L, Long::sum);
        }
    }
}
