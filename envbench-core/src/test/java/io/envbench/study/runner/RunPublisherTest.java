package io.envbench.study.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.prometheus.PrometheusEndpoint;
import io.envbench.measure.publish.PublishSetting;
import io.envbench.measure.publish.Publishing;
import io.envbench.measure.publish.SettingSpelling;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.PlannedRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's publishing wired to a run's progress, scraped over HTTP on loopback: one endpoint across two runs, each
 * run's ticks as gauges labelled with its environment while it runs and none between runs (the scrape still answers),
 * and its JTL's samples, as JMeter appends them, counted per label and environment.
 */
class RunPublisherTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,success,bytes,sentBytes,envbench.env\n";

    /** As a front end spells the settings; what a message says of them is the front end's. */
    private static final SettingSpelling FLAGS = new SettingSpelling() {
        @Override
        public String field(PublishSetting setting) {
            return "--" + setting.name().toLowerCase().replace('_', '-');
        }

        @Override
        public String give(PublishSetting setting, String value) {
            return field(setting) + " " + value;
        }
    };

    @TempDir
    Path dir;

    /**
     * Closed while something scrapes it every 300 ms, the endpoint answers one more scrape first (the last run's final
     * samples would otherwise miss Prometheus); never scraped, it closes at once.
     */
    @Test
    void closingWaitsForOneMoreScrapeOfARegularScraper() throws Exception {
        RunPublisher publisher = RunPublisher.start(
                new Publishing(Optional.of(new InetSocketAddress(LOOPBACK, freePort())), Optional.empty(), FLAGS));
        URI uri = publisher.prometheusUri().orElseThrow();
        HttpClient http = HttpClient.newHttpClient();
        List<Long> answeredStarts = new CopyOnWriteArrayList<>();
        AtomicBoolean scraping = new AtomicBoolean(true);
        Thread scraper = new Thread(() -> {
            while (scraping.get()) {
                long start = System.nanoTime();
                try {
                    HttpResponse<String> r = http.send(
                            HttpRequest.newBuilder(uri)
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 200) {
                        answeredStarts.add(start);
                    }
                    Thread.sleep(300);
                } catch (IOException e) {
                    return; // closed
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        scraper.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (answeredStarts.size() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(answeredStarts.size() >= 3, "scraped: " + answeredStarts.size());
        Thread.sleep(150); // between two scrapes
        long closing = System.nanoTime();
        publisher.close();
        scraping.set(false);
        scraper.join(5000);
        assertTrue(
                answeredStarts.stream().anyMatch(t -> t > closing),
                "a scrape begun after close() was called got its answer");

        RunPublisher unscraped = RunPublisher.start(
                new Publishing(Optional.of(new InetSocketAddress(LOOPBACK, freePort())), Optional.empty(), FLAGS));
        long t0 = System.nanoTime();
        unscraped.close();
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(5).toNanos(), "never scraped: closed without waiting");
    }

    @Test
    void oneEndpointServesEveryRunsTicksAndSamplesUnderItsEnvironment() throws Exception {
        int port = freePort();
        RunDirectory run = new RunDirectory(dir);
        Files.createDirectories(dir.resolve("jtl"));
        List<String> told = new ArrayList<>();
        RunProgress heard = new RunProgress() {
            @Override
            public void log(String line) {
                told.add(line);
            }
        };
        try (RunPublisher publisher = RunPublisher.start(
                new Publishing(Optional.of(new InetSocketAddress(LOOPBACK, port)), Optional.empty(), FLAGS))) {
            assertEquals(
                    URI.create("http://127.0.0.1:" + port + "/metrics"),
                    publisher.prometheusUri().orElseThrow());
            RunProgress progress = publisher.around(heard, run);
            assertFalse(scrape(port).contains("envbench_host_cpu_percent"), "no figures before the first run");

            PlannedRun bare = new PlannedRun(1, "bare", 1);
            progress.runStarting(bare, 1, 2, Duration.ofSeconds(10));
            Path jtl = run.jtl(bare);
            Files.writeString(jtl, HEADER + "1000,3,home,200,true,100,10,bare\n1001,40,home,200,true,100,10,bare\n");
            progress.metrics(bare, tick(1000, "bare", 37.5, 12.0, "bare"));
            String during = scrape(port);
            assertEquals(37.5, gauge(during, "envbench_host_cpu_percent", ""), during);
            assertEquals(12.0, gauge(during, "envbench_target_process_cpu_percent", "environment=\"bare\""), during);
            assertEquals(2.0, gauge(during, "envbench_samples_total", "environment=\"bare\",label=\"home\""), during);
            // JMeter appends after the last tick: read at the run's end, including a line finished only then
            Files.writeString(jtl, "1002,7,login,500,false,1", StandardOpenOption.APPEND);
            Files.writeString(jtl, "00,10,bare\n", StandardOpenOption.APPEND);
            progress.runEnded(
                    new RunRecord(bare, Instant.now(), Instant.now(), RunRecord.OK, 3, 0, Instant.now()), 1, 2);

            String between = scrape(port); // answers between runs: the counts so far, no figure of a machine
            assertFalse(between.contains("envbench_host_cpu_percent"), between);
            assertEquals(2.0, gauge(between, "envbench_samples_total", "environment=\"bare\",label=\"home\""));
            assertEquals(1.0, gauge(between, "envbench_errors_total", "environment=\"bare\",label=\"login\""));
            assertEquals(
                    1.0,
                    gauge(
                            between,
                            PrometheusEndpoint.RESPONSE_TIME + "_bucket",
                            "environment=\"bare\",label=\"home\",le=\"0.005\""),
                    "3 ms in the 5 ms bucket, 40 ms not");

            PlannedRun docker = new PlannedRun(1, "docker", 1);
            progress.runStarting(docker, 2, 2, Duration.ofSeconds(5));
            Files.writeString(run.jtl(docker), HEADER + "2000,5,home,200,true,100,10,docker\n");
            progress.metrics(docker, tick(2000, "docker", 55.0, 20.0, null));
            String second = scrape(port);
            assertEquals(55.0, gauge(second, "envbench_host_cpu_percent", ""));
            assertEquals(20.0, gauge(second, "envbench_container_cpu_percent", "environment=\"docker\""), second);
            assertFalse(second.contains("envbench_target_process_cpu_percent{"), "the bare run's figure is gone");
            assertEquals(1.0, gauge(second, "envbench_samples_total", "environment=\"docker\",label=\"home\""));
            assertEquals(2.0, gauge(second, "envbench_samples_total", "environment=\"bare\",label=\"home\""));
            assertTrue(told.isEmpty(), told.toString());
        }
        assertPortFree(port);
    }

    /**
     * The publishing progress stands between the runner and the caller's: a call it did not pass on would reach the
     * interface's empty default and be lost (the knee chart of a search before the runs was, once), so it overrides
     * every method, those added later too.
     */
    @Test
    void theWrapperPassesOnEveryCallOfTheProgress() throws Exception {
        int port = freePort();
        try (RunPublisher publisher = RunPublisher.start(
                new Publishing(Optional.of(new InetSocketAddress(LOOPBACK, port)), Optional.empty(), FLAGS))) {
            RunProgress wrapper = publisher.around(new RunProgress() {}, new RunDirectory(dir));
            List<String> notPassedOn = new ArrayList<>();
            for (java.lang.reflect.Method m : RunProgress.class.getMethods()) {
                try {
                    wrapper.getClass().getDeclaredMethod(m.getName(), m.getParameterTypes());
                } catch (NoSuchMethodException missing) {
                    notPassedOn.add(m.getName());
                }
            }
            assertEquals(List.of(), notPassedOn, "RunProgress calls the publishing wrapper does not pass on");
        }
        assertPortFree(port);
    }

    @Test
    void aPortInUseIsRefusedNamingTheFlagAndTheFix() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, LOOPBACK)) {
            int port = taken.getLocalPort();
            var e = assertThrows(
                    InvalidSettingException.class,
                    () -> RunPublisher.start(new Publishing(
                            Optional.of(new InetSocketAddress(LOOPBACK, port)), Optional.empty(), FLAGS)));
            String m = e.getMessage();
            assertTrue(m.startsWith("--prometheus-port: " + port + ": no Prometheus endpoint: port " + port), m);
            assertTrue(m.contains("is in use"), m);
            assertTrue(m.contains("give another, e.g. --prometheus-port " + (port + 1)), m);
        }
    }

    @Test
    void withoutPublishingTheProgressIsTheCallersOwn() {
        RunProgress p = new RunProgress() {};
        try (RunPublisher none = RunPublisher.start(Publishing.NONE)) {
            assertTrue(none.around(p, new RunDirectory(dir)) == p);
            assertTrue(none.prometheusUri().isEmpty() && none.influxDb().isEmpty());
        }
    }

    /** A tick as a bare-metal run's collector (a process tree) or a container's gives it. */
    private static MetricsCollector.Tick tick(long ms, String env, double hostCpu, double targetCpu, String bare) {
        Map<String, Double> v = new LinkedHashMap<>();
        v.put("host.cpu.pct", hostCpu);
        v.put(bare != null ? "process." + bare + ".cpu.pct" : "container." + env + ".cpu.pct", targetCpu);
        return new MetricsCollector.Tick(ms, env, v);
    }

    /** The value of a series in the text format, by its name and its labels as written (sorted by name). */
    private static double gauge(String text, String name, String labels) {
        Matcher m = Pattern.compile(
                        "(?m)^" + Pattern.quote(name + (labels.isEmpty() ? "" : "{" + labels + "}")) + " (\\S+)$")
                .matcher(text);
        assertTrue(m.find(), name + "{" + labels + "} in:\n" + text);
        return Double.parseDouble(m.group(1));
    }

    private static String scrape(int port) throws IOException, InterruptedException {
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
        return r.body();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 50, LOOPBACK)) {
            return s.getLocalPort();
        }
    }

    private static void assertPortFree(int port) throws IOException {
        try (ServerSocket again = new ServerSocket(port, 50, LOOPBACK)) {
            assertEquals(port, again.getLocalPort());
        }
        assertThrows(ConnectException.class, () -> scrape(port), "something still answers on " + port);
    }
}
