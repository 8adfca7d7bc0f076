package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import io.envbench.launch.docker.DockerInventory;
import io.envbench.measure.metrics.HostProbe;
import io.envbench.measure.metrics.Influxd;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.Sample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * testplans/static-web.jmx in the real JMeter, headless, with {@code -Jenvbench.influxdb.url} pointing at a real
 * InfluxDB 1.6 (Debian's {@code influxd}, the test's own on 127.0.0.1); then InfluxQL answers: the samples of each
 * label and environment are those of the JTL, exactly; the series exist tagged with each environment (the samples, and
 * the target's figures: a bare-metal target's process tree, a container); and the figures agree with the metrics CSV
 * of the same run: at every row's timestamp, host CPU, JMeter's CPU and RSS, the running target's CPU and memory, and
 * docker-proxy's CPU, equal within the file's rounding (three decimals, so 0.0005; the points carry the tick's
 * double). The bare-metal run needs no Docker; the three-environment run does.
 */
@BesideOthers("its containers are locked; its InfluxDB on a free port; it asserts no rate or time")
@ResourceLock(SharedResources.LABELLED_DOCKER)
@ResourceLock(SharedResources.PORT_18080)
class InfluxDbPlanTest {
    private static final String DB = "envbench";

    @TempDir
    Path dir;

    @Test
    void aBareMetalRunIsInInfluxDbAsInItsJtlAndMetricsFile() throws Exception {
        Result r = run("bare");
        r.assertTaggedWithEachEnvironment(Set.of("bare"));
        Set<String> bare = r.series("envbench_target_process_cpu_percent");
        assertTrue(bare.stream().anyMatch(t -> t.contains("environment=bare")), "bare's process tree: " + bare);
    }

    @Test
    void threeEnvironmentsAreSideBySideInInfluxDb() throws Exception {
        DockerInventory docker = Jmeter.docker();
        Result r = run("bare,docker-bridge,docker-host");
        r.assertTaggedWithEachEnvironment(Set.of("bare", "docker-bridge", "docker-host"));
        Set<String> containers = r.series("envbench_container_cpu_percent");
        assertTrue(
                containers.stream().anyMatch(s -> s.contains("environment=docker-bridge"))
                        && containers.stream().anyMatch(s -> s.contains("environment=docker-host")),
                "container series: " + containers);
        assertTrue(
                r.series("envbench_process_cpu_percent").stream()
                        .anyMatch(s -> s.contains("process=docker-proxy") && s.contains("running=docker-bridge")),
                "docker-proxy while docker-bridge ran: " + r.series("envbench_process_cpu_percent"));
        Jmeter.assertNothingLabelledLeft(docker);
    }

    /** The run, its samples and metrics file, and what InfluxDB holds of it (read before influxd stops). */
    private record Result(List<Sample> samples, Map<String, Set<String>> seriesByMeasurement) {
        Set<String> series(String measurement) {
            return seriesByMeasurement.getOrDefault(measurement, Set.of());
        }

        void assertTaggedWithEachEnvironment(Set<String> environments) {
            assertEquals(
                    environments,
                    samples.stream().map(Sample::environment).collect(Collectors.toSet()),
                    "the JTL's environments");
            Set<String> tagged = new TreeSet<>();
            series("envbench_response_time").forEach(s -> tagged.add(s.replaceAll(".*environment=([^,}]*).*", "$1")));
            assertEquals(new TreeSet<>(environments), tagged, "envbench_response_time's environments");
        }
    }

    private Result run(String environments) throws Exception {
        try (Influxd influx = Influxd.start(Files.createDirectories(dir.resolve("influxdb")))) {
            Path jtl = dir.resolve("run.jtl");
            Path csv = dir.resolve("metrics.csv");
            List<String> props = new ArrayList<>(Jmeter.shortRun(environments));
            props.add("-Jenvbench.influxdb.url=" + influx.url());
            props.add("-Jenvbench.metrics.interval.ms=500");
            props.add("-Jenvbench.metrics.file=" + csv);
            props.add("-Jenvbench.targets.dir=" + Jmeter.ROOT.resolve("targets"));
            List<Sample> samples = Jmeter.run(Jmeter.STATIC_WEB, jtl, props);
            assertTrue(samples.size() > 100, "samples: " + samples.size());
            String log = Files.readString(jtl.resolveSibling("run.jtl.log"));
            assertTrue(log.contains("points written") && !log.contains(" dropped"), "InfluxDB writer: " + log);

            // every sample: per label and environment, count and errors as in the JTL
            Map<String, List<Long>> fromJtl = new TreeMap<>();
            for (Sample s : samples) {
                List<Long> c = fromJtl.computeIfAbsent(
                        s.label() + "|" + s.environment(), k -> new ArrayList<>(List.of(0L, 0L)));
                c.set(0, c.get(0) + 1);
                c.set(1, c.get(1) + (s.success() ? 0 : 1));
            }
            Map<String, List<Long>> fromInflux = new TreeMap<>();
            for (JsonNode s : influx.query(
                            DB,
                            "SELECT sum(\"samples\"), sum(\"errors\") FROM \"envbench_response_time\""
                                    + " GROUP BY \"label\", \"environment\"")
                    .path("series")) {
                JsonNode v = s.path("values").get(0);
                fromInflux.put(
                        s.path("tags").path("label").asText() + "|"
                                + s.path("tags").path("environment").asText(),
                        List.of(v.get(1).asLong(), v.get(2).asLong()));
            }
            assertEquals(fromJtl, fromInflux, "samples and errors per label|environment: JTL vs InfluxDB");

            // the metrics file's figures, row by row
            List<MetricsFile.Row> rows = new ArrayList<>();
            MetricsFile.forEachRow(csv, rows::add);
            assertTrue(rows.size() >= 4, "metrics rows: " + rows.size());
            int checked = 0;
            for (MetricsFile.Row row : rows) {
                for (var e : row.values().entrySet()) {
                    String[] point = pointOf(e.getKey(), row.environment());
                    if (point == null || e.getValue() == null || !Double.isFinite(e.getValue())) {
                        continue;
                    }
                    JsonNode got = influx.query(
                            DB,
                            "SELECT \"value\" FROM \"" + point[0] + "\" WHERE "
                                    + (point[1].isEmpty() ? "" : point[1] + " AND ") + "\"running\" = '"
                                    + row.environment() + "' AND time = " + row.epochMs() + "ms");
                    JsonNode values = got.path("series").path(0).path("values");
                    assertEquals(1, values.size(), e.getKey() + " at " + row.epochMs() + ": " + got);
                    assertEquals(
                            e.getValue(),
                            values.get(0).get(1).asDouble(),
                            0.0005,
                            e.getKey() + " at " + row.epochMs() + " (" + row.environment() + ")");
                    checked++;
                }
            }
            assertTrue(checked >= rows.size() * 2, "figures checked: " + checked);

            Map<String, Set<String>> series = new HashMap<>();
            for (JsonNode s :
                    influx.query(DB, "SHOW SERIES").path("series").path(0).path("values")) {
                String key = s.get(0).asText(); // measurement,tag=value,...
                int comma = key.indexOf(',');
                series.computeIfAbsent(comma < 0 ? key : key.substring(0, comma), k -> new TreeSet<>())
                        .add(comma < 0 ? "" : key.substring(comma + 1));
            }
            System.out.printf(
                    "InfluxDB after %s: %d samples, %d figures agree with the metrics CSV, measurements %s%n",
                    environments, samples.size(), checked, series.keySet());
            return new Result(samples, series);
        }
    }

    /**
     * The measurement and tag condition of a metrics-file column, as docs/metrics.md's table names them (the columns
     * the issue asks for: host, JMeter, the targets, docker-proxy); null for the others.
     */
    private static String[] pointOf(String column, String running) {
        return switch (column) {
            case "host.cpu.pct" -> new String[] {"envbench_host_cpu_percent", ""};
            case "host.mem.used.bytes" -> new String[] {"envbench_host_mem_used_bytes", ""};
            case "process.jmeter.cpu.pct" -> new String[] {"envbench_process_cpu_percent", "\"process\" = 'jmeter'"};
            case "process.jmeter.rss.bytes" -> new String[] {"envbench_process_rss_bytes", "\"process\" = 'jmeter'"};
            case "process.docker-proxy.cpu.pct" ->
                new String[] {"envbench_process_cpu_percent", "\"process\" = 'docker-proxy'"};
            case "target.cpu.pct" ->
                new String[] {"envbench_target_cpu_percent", "\"environment\" = '" + running + "'"};
            case "target.mem.bytes" ->
                new String[] {"envbench_target_mem_bytes", "\"environment\" = '" + running + "'"};
            default -> {
                if (column.matches("container\\.[^.]+\\.cpu\\.pct")) {
                    yield new String[] {
                        "envbench_container_cpu_percent", "\"environment\" = '" + column.split("\\.")[1] + "'"
                    };
                }
                String owner = column.split("\\.")[1];
                if (column.matches("process\\.[^./]+\\.cpu\\.pct")
                        && !owner.equals(HostProbe.JVM_ROLE)
                        && !HostProbe.WATCHED.contains(owner)) {
                    yield new String[] {
                        "envbench_target_process_cpu_percent", "\"environment\" = '" + column.split("\\.")[1] + "'"
                    };
                }
                yield null;
            }
        };
    }
}
