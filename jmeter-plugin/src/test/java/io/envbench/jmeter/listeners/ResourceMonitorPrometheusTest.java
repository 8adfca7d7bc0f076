package io.envbench.jmeter.listeners;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.GuiTests;
import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.measure.prometheus.PrometheusEndpoint;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Resource Monitor's Prometheus endpoint, scraped over HTTP on 127.0.0.1 as Prometheus scrapes it: real histogram
 * buckets per label and environment, counters, the collector's gauges; refused on an address other machines reach;
 * a taken port leaves the test running; the port is free after the test.
 */
class ResourceMonitorPrometheusTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @TempDir
    Path dir;

    private final AtomicInteger stops = new AtomicInteger();
    private final List<String> told = new CopyOnWriteArrayList<>();
    private ResourceMonitor monitor;
    private int port;

    @BeforeEach
    void properties() throws IOException {
        GuiTests.initJMeter();
        port = freePort();
        JMeterUtils.setProperty(EnvBenchProperties.PROMETHEUS_PORT, Integer.toString(port));
        JMeterContextService.getContext().setVariables(new JMeterVariables());
    }

    @AfterEach
    void end() {
        if (monitor != null) {
            monitor.testEnded();
        }
        JMeterUtils.getJMeterProperties().remove(EnvBenchProperties.PROMETHEUS_PORT);
        JMeterUtils.getJMeterProperties().remove(EnvBenchProperties.PROMETHEUS_HOST);
        assertTrue(JMeterEnvBench.collector().isEmpty(), "the collector is left running");
    }

    private ResourceMonitor startMonitor() {
        monitor = new ResourceMonitor();
        monitor.setInterval("100");
        monitor.setFilename(dir.resolve("metrics.csv").toString());
        monitor.onFailureStop(stops::incrementAndGet);
        monitor.onTellUser(told::add);
        monitor.testStarted();
        return monitor;
    }

    /** One sample as a JMeter thread reports it: its thread's envbench.env set, then the listener told. */
    static void feed(ResourceMonitor m, String label, String environment, long elapsedMs, boolean ok) {
        JMeterContextService.getContext().getVariables().put(EnvBenchProperties.ENV_VARIABLE, environment);
        SampleResult r = SampleResult.createTestSample(elapsedMs);
        r.setSampleLabel(label);
        r.setSuccessful(ok);
        m.sampleOccurred(new SampleEvent(r, "Thread Group"));
    }

    @Test
    void theHistogramIsCumulativeAndCountsEverySampleOfEachLabelAndEnvironment() throws Exception {
        startMonitor();
        assertEquals(0, stops.get(), "stopped: " + told);
        assertNotNull(monitor.prometheus(), "no endpoint: " + told);
        // on bucket bounds (1, 5, 10, 100, 1000 ms: counted in that bucket, le is "at most"), between, and past 30 s
        Map<String, List<Long>> fed = new LinkedHashMap<>();
        fed.put("home|docker", List.of(0L, 1L, 3L, 5L, 7L, 10L, 12L, 40L, 90L, 100L, 180L, 600L, 1000L, 2400L, 40000L));
        fed.put("home|bare", List.of(2L, 2L, 4L, 30L, 30L, 250L));
        fed.put("login|bare", List.of(15L, 20L, 25L, 2600L));
        Map<String, Integer> errors = Map.of("home|docker", 0, "home|bare", 1, "login|bare", 2);
        for (var e : fed.entrySet()) {
            String[] key = e.getKey().split("\\|");
            int failed = 0;
            for (long ms : e.getValue()) {
                boolean ok = failed >= errors.get(e.getKey());
                failed += ok ? 0 : 1;
                feed(monitor, key[0], key[1], ms, ok);
            }
        }

        List<Sample> scraped = Exposition.parse(scrape(port));
        for (var e : fed.entrySet()) {
            String[] key = e.getKey().split("\\|");
            Map<String, String> labels = Map.of("label", key[0], "environment", key[1]);
            List<Long> values = e.getValue();
            TreeMap<Double, Double> buckets = new TreeMap<>();
            for (Sample s : scraped) {
                if (s.name().equals(PrometheusEndpoint.RESPONSE_TIME + "_bucket") && s.has(labels)) {
                    String le = s.labels().get("le");
                    buckets.put(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le), s.value());
                }
            }
            assertEquals(PrometheusEndpoint.BUCKETS_SECONDS.size() + 1, buckets.size(), e.getKey() + ": " + buckets);
            double previous = 0;
            for (var b : buckets.entrySet()) {
                assertTrue(
                        b.getValue() >= previous, e.getKey() + ": not cumulative at le=" + b.getKey() + ": " + buckets);
                previous = b.getValue();
                long atMost =
                        values.stream().filter(ms -> ms / 1000.0 <= b.getKey()).count();
                assertEquals((double) atMost, b.getValue(), e.getKey() + " le=" + b.getKey());
            }
            assertEquals((double) values.size(), buckets.lastEntry().getValue(), e.getKey() + ": +Inf bucket");
            assertEquals(
                    values.size(), value(scraped, PrometheusEndpoint.RESPONSE_TIME + "_count", labels), e.getKey());
            double sumSeconds = values.stream().mapToDouble(ms -> ms / 1000.0).sum();
            assertEquals(
                    sumSeconds, value(scraped, PrometheusEndpoint.RESPONSE_TIME + "_sum", labels), 1e-9, e.getKey());
            assertEquals(values.size(), value(scraped, PrometheusEndpoint.SAMPLES + "_total", labels), e.getKey());
            assertEquals(
                    (double) errors.get(e.getKey()),
                    value(scraped, PrometheusEndpoint.ERRORS + "_total", labels),
                    e.getKey());
            System.out.printf(
                    "%s: _count %.0f, _sum %.3f s, buckets %s%n",
                    e.getKey(),
                    value(scraped, PrometheusEndpoint.RESPONSE_TIME + "_count", labels),
                    value(scraped, PrometheusEndpoint.RESPONSE_TIME + "_sum", labels),
                    buckets.values());
        }

        // the collector's figures: the host's from the second tick, JMeter's own process once processes were read
        long deadline = System.nanoTime() + 10_000_000_000L;
        Double hostCpu = null;
        Double jmeterRss = null;
        while ((hostCpu == null || jmeterRss == null) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            List<Sample> now = Exposition.parse(scrape(port));
            hostCpu = find(now, "envbench_host_cpu_percent", Map.of());
            jmeterRss = find(now, "envbench_process_rss_bytes", Map.of("process", "jmeter"));
        }
        assertNotNull(hostCpu, "no envbench_host_cpu_percent");
        assertTrue(hostCpu >= 0 && hostCpu <= 100, "host CPU " + hostCpu);
        assertNotNull(jmeterRss, "no envbench_process_rss_bytes{process=\"jmeter\"}");
        assertTrue(jmeterRss > 10e6, "this JVM's resident set " + jmeterRss);
        System.out.printf("envbench_host_cpu_percent %.1f, JMeter's RSS %.0f MB%n", hostCpu, jmeterRss / 1e6);

        monitor.testEnded();
        monitor = null;
        assertPortFree(port);
    }

    @Test
    void aHostOtherMachinesReachIsRefusedNamingThePropertyAndNothingListens() throws Exception {
        JMeterUtils.setProperty(EnvBenchProperties.PROMETHEUS_HOST, "0.0.0.0");
        startMonitor();
        assertEquals(1, stops.get(), "a setting the user got wrong stops the test at its start, as the others do");
        assertEquals(1, told.size(), told.toString());
        String m = told.get(0);
        assertTrue(m.contains(EnvBenchProperties.PROMETHEUS_HOST + ": '0.0.0.0'"), m);
        assertTrue(m.contains("not a loopback address"), m);
        System.out.println("told: " + m);
        assertNull(monitor.prometheus());
        assertTrue(JMeterEnvBench.collector().isEmpty(), "no collector runs");
        try (ServerSocket any = new ServerSocket()) {
            any.bind(new InetSocketAddress("0.0.0.0", port)); // nothing holds the port on any address
        }
    }

    @Test
    void aTakenPortIsToldNamingThePropertyAndThePortAndTheTestRuns() throws Exception {
        try (ServerSocket taken = new ServerSocket(port, 50, LOOPBACK)) {
            startMonitor();
            assertEquals(0, stops.get(), "the test runs");
            assertTrue(JMeterEnvBench.collector().isPresent(), "the collector runs");
            assertNull(monitor.prometheus());
            assertEquals(1, told.size(), told.toString());
            String m = told.get(0);
            assertTrue(m.contains(EnvBenchProperties.PROMETHEUS_PORT + "=" + port), m);
            assertTrue(m.contains("port " + port + " on 127.0.0.1 is in use"), m);
            assertTrue(m.contains("The test runs without it"), m);
            System.out.println("told: " + m);
            feed(monitor, "home", "docker", 12, true); // no endpoint: nothing to count into, nothing fails
        }
    }

    static void assertPortFree(int port) throws IOException {
        try (ServerSocket again = new ServerSocket(port, 50, LOOPBACK)) {
            assertEquals(port, again.getLocalPort());
        }
        assertThrows(ConnectException.class, () -> scrape(port), "something still answers on " + port);
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 50, LOOPBACK)) {
            return s.getLocalPort();
        }
    }

    static String scrape(int port) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder()
                .proxy(HttpClient.Builder.NO_PROXY)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(
                r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"),
                r.headers().toString());
        return r.body();
    }

    private static double value(List<Sample> samples, String name, Map<String, String> labels) {
        Double v = find(samples, name, labels);
        assertNotNull(v, name + labels + " not exposed");
        return v;
    }

    private static Double find(List<Sample> samples, String name, Map<String, String> labels) {
        return samples.stream()
                .filter(s -> s.name().equals(name) && s.has(labels))
                .map(Sample::value)
                .findFirst()
                .orElse(null);
    }

    record Sample(String name, Map<String, String> labels, double value) {
        boolean has(Map<String, String> wanted) {
            return labels.entrySet().containsAll(wanted.entrySet());
        }
    }

    /** The text exposition format (version 0.0.4), read line by line as Prometheus reads it; comments skipped. */
    static final class Exposition {
        private static final Pattern LINE =
                Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})?\\s+(\\S+)(\\s+\\S+)?");
        private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

        static List<Sample> parse(String text) {
            List<Sample> out = new ArrayList<>();
            for (String line : text.split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                Matcher m = LINE.matcher(line);
                assertTrue(m.matches(), "not a sample line: " + line);
                Map<String, String> labels = new LinkedHashMap<>();
                if (m.group(3) != null) {
                    Matcher l = LABEL.matcher(m.group(3));
                    int at = 0;
                    while (l.find() && l.start() == at) {
                        labels.put(
                                l.group(1),
                                l.group(2)
                                        .replace("\\\"", "\"")
                                        .replace("\\n", "\n")
                                        .replace("\\\\", "\\"));
                        at = l.end();
                    }
                    assertEquals(m.group(3).length(), at, "labels not read whole: " + line);
                }
                String v = m.group(4);
                double value = switch (v) {
                    case "+Inf" -> Double.POSITIVE_INFINITY;
                    case "-Inf" -> Double.NEGATIVE_INFINITY;
                    default -> Double.parseDouble(v);
                };
                out.add(new Sample(m.group(1), labels, value));
            }
            return out;
        }
    }
}
