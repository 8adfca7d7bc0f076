package io.envbench.jmeter.listeners;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.GuiTests;
import io.envbench.measure.metrics.Prometheusd;
import io.envbench.measure.prometheus.PrometheusEndpoint;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus (Debian's package, 2.42, the core's test fixture {@code Prometheusd}) scrapes the Resource Monitor every second while samples arrive for a few
 * seconds; then its HTTP API answers: the samples counted per label and environment, and {@code histogram_quantile}
 * over the buckets, per environment and summed over environments (buckets add up; percentiles would not), equal to
 * what Prometheus's own rule gives for the elapsed times fed. Without a prometheus binary the test is skipped with the
 * reason, and fails under CI=true ({@code ./envbench test} installs it).
 */
class RealPrometheusTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void prometheusCountsEverySampleAndItsQuantilesAreOfTheBucketsFed() throws Exception {
        Prometheusd.binary(); // skipped (or failed under CI=true) before anything starts
        GuiTests.initJMeter();
        int endpointPort = ResourceMonitorPrometheusTest.freePort();
        JMeterUtils.setProperty(EnvBenchProperties.PROMETHEUS_PORT, Integer.toString(endpointPort));
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        AtomicInteger stops = new AtomicInteger();
        List<String> told = new ArrayList<>();
        ResourceMonitor monitor = new ResourceMonitor();
        monitor.setInterval("500");
        monitor.setFilename(dir.resolve("metrics.csv").toString());
        monitor.onFailureStop(stops::incrementAndGet);
        monitor.onTellUser(told::add);
        Prometheusd prometheus = null;
        try {
            monitor.testStarted();
            assertEquals(0, stops.get(), told.toString());
            assertNotNull(monitor.prometheus(), told.toString());
            prometheus = Prometheusd.start(dir, endpointPort);
            Prometheusd api = prometheus;

            // three rounds a second apart, so scrapes see the counters grow; elapsed times spread as a web page's
            Map<String, List<Long>> fed = new HashMap<>();
            Map<String, Integer> errors = new HashMap<>();
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 50; i++) {
                    feed(monitor, fed, errors, "home", "docker", 5 + (i * 37L) % 200, true);
                    feed(monitor, fed, errors, "home", "bare", 3 + (i * 53L) % 120, true);
                    feed(monitor, fed, errors, "login", "bare", 20 + (i * 71L) % 400, i % 10 != 0);
                }
                Thread.sleep(1000);
            }

            // until a scrape after the last sample is stored: every series at its full count
            api.waitFor(
                    () -> {
                        Map<String, Double> counts = byLabels(api.query(PrometheusEndpoint.RESPONSE_TIME + "_count"));
                        return counts.size() == fed.size()
                                && fed.entrySet().stream()
                                        .allMatch(e -> counts.getOrDefault(e.getKey(), -1.0)
                                                == e.getValue().size());
                    },
                    "Prometheus to hold every sample");
            Map<String, Double> counts = byLabels(api.query(PrometheusEndpoint.RESPONSE_TIME + "_count"));
            Map<String, Double> samples = byLabels(api.query(PrometheusEndpoint.SAMPLES + "_total"));
            Map<String, Double> failed = byLabels(api.query(PrometheusEndpoint.ERRORS + "_total"));
            Map<String, Double> p90 =
                    byLabels(api.query("histogram_quantile(0.9, " + PrometheusEndpoint.RESPONSE_TIME + "_bucket)"));
            for (var e : fed.entrySet()) {
                String series = e.getKey();
                assertEquals((double) e.getValue().size(), counts.get(series), series + " _count");
                assertEquals((double) e.getValue().size(), samples.get(series), series + " samples");
                assertEquals((double) errors.getOrDefault(series, 0), failed.get(series), series + " errors");
                assertQuantile(0.9, e.getValue(), p90.get(series), series);
            }
            // over both environments: the buckets summed, then the quantile (what averaging percentiles cannot give)
            JsonNode both = api.query("histogram_quantile(0.9, sum by (le) (" + PrometheusEndpoint.RESPONSE_TIME
                    + "_bucket{label=\"home\"}))");
            List<Long> home = new ArrayList<>(fed.get("home|docker"));
            home.addAll(fed.get("home|bare"));
            assertQuantile(0.9, home, value(both.get(0)), "home, both environments");

            double up = value(api.query("up{job=\"" + Prometheusd.JOB + "\"}").get(0));
            assertEquals(1.0, up, "the scrape target is up");
            JsonNode hostCpu = api.query("envbench_host_cpu_percent");
            assertEquals(1, hostCpu.size(), "the collector's gauges reach Prometheus: " + hostCpu);
            // the dashboard's queries, as Grafana sends them: PromQL this Prometheus runs, those over samples with data
            // rate() needs two scrapes of a series (the first may come after the last sample)
            api.waitFor(
                    () -> api.query("min(count_over_time(" + PrometheusEndpoint.SAMPLES + "_total[1m])) >= 2")
                                    .size()
                            == 1,
                    "a second scrape");
            JsonNode dashboard = JSON.readTree(GrafanaDashboardsTest.PROMETHEUS_DASHBOARD.toFile());
            for (JsonNode panel : dashboard.path("panels")) {
                for (JsonNode t : panel.path("targets")) {
                    String q = t.path("expr")
                            .asText()
                            .replace("$__rate_interval", "1m")
                            .replace("=~\"$environment\"", "=~\"bare|docker\"")
                            .replace("\"$environment\"", "\"bare\"");
                    JsonNode r = api.query(q); // fails unless Prometheus took it
                    if (q.contains("envbench_samples_total") || q.contains("_bucket")) {
                        assertTrue(r.size() > 0, "no data for the dashboard's " + q);
                    }
                }
            }
            System.out.printf(
                    "Prometheus: _count %s, errors %s, p90 %s s, home p90 over both %.4f s, host CPU %.1f %%%n",
                    counts, failed, p90, value(both.get(0)), value(hostCpu.get(0)));
        } finally {
            if (prometheus != null) {
                prometheus.close();
            }
            monitor.testEnded();
            JMeterUtils.getJMeterProperties().remove(EnvBenchProperties.PROMETHEUS_PORT);
        }
        assertTrue(!prometheus.isAlive(), "prometheus still runs");
        ResourceMonitorPrometheusTest.assertPortFree(endpointPort);
    }

    /** Prometheus's estimate from the fed values' buckets, by its own rule, and in the bucket of the true quantile. */
    private static void assertQuantile(double q, List<Long> elapsedMs, Double answer, String series) {
        assertNotNull(answer, series + ": no quantile");
        List<Double> bounds = new ArrayList<>(PrometheusEndpoint.BUCKETS_SECONDS);
        bounds.add(Double.POSITIVE_INFINITY);
        double[] cumulative = new double[bounds.size()];
        for (int i = 0; i < bounds.size(); i++) {
            double le = bounds.get(i);
            cumulative[i] = elapsedMs.stream().filter(ms -> ms / 1000.0 <= le).count();
        }
        // promql's bucketQuantile (2.42): the first bucket holding rank q*count, linear within it from its lower bound
        double rank = q * cumulative[cumulative.length - 1];
        int b = 0;
        while (cumulative[b] < rank) {
            b++;
        }
        double expected;
        if (b == bounds.size() - 1) {
            expected = bounds.get(b - 1);
        } else {
            double start = b == 0 ? 0 : bounds.get(b - 1);
            double below = b == 0 ? 0 : cumulative[b - 1];
            expected = start + (bounds.get(b) - start) * (rank - below) / (cumulative[b] - below);
        }
        assertEquals(expected, answer, 1e-9, series);
        List<Long> sorted = elapsedMs.stream().sorted().toList();
        double trueQuantile = sorted.get((int) Math.ceil(q * sorted.size()) - 1) / 1000.0;
        double lower = b == 0 ? 0 : bounds.get(b - 1);
        assertTrue(
                trueQuantile > lower && trueQuantile <= bounds.get(b),
                series + ": the fed p" + (int) (q * 100) + " " + trueQuantile + " s is not in (" + lower + ", "
                        + bounds.get(b) + "]");
    }

    private static void feed(
            ResourceMonitor m,
            Map<String, List<Long>> fed,
            Map<String, Integer> errors,
            String label,
            String environment,
            long ms,
            boolean ok) {
        ResourceMonitorPrometheusTest.feed(m, label, environment, ms, ok);
        fed.computeIfAbsent(label + "|" + environment, k -> new ArrayList<>()).add(ms);
        if (!ok) {
            errors.merge(label + "|" + environment, 1, Integer::sum);
        }
    }

    /** label|environment to value. */
    private static Map<String, Double> byLabels(JsonNode vector) {
        Map<String, Double> m = new HashMap<>();
        for (JsonNode s : vector) {
            m.put(
                    s.path("metric").path("label").asText() + "|"
                            + s.path("metric").path("environment").asText(),
                    value(s));
        }
        return m;
    }

    private static double value(JsonNode sample) {
        return Double.parseDouble(sample.path("value").get(1).asText());
    }
}
