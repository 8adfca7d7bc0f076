package io.envbench.measure.prometheus;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.envbench.measure.metrics.MetricsCollector;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import net.jcip.annotations.GuardedBy;
import net.jcip.annotations.ThreadSafe;

/**
 * The Resource Monitor's Prometheus endpoint while a test runs: {@code http://127.0.0.1:PORT/metrics} in the text
 * exposition format, served by the official Prometheus Java client from a registry of its own (never the client's
 * global default one: two endpoints in one JVM, or another plugin's, do not mix).
 * <ul>
 *   <li>the collector's latest tick, every column a gauge ({@link ExposedName}), read at each scrape;
 *   <li>{@value #RESPONSE_TIME}: a histogram of each sample's elapsed time per sampler label and environment, with
 *       cumulative buckets ({@link #BUCKETS_SECONDS}), so Prometheus computes any quantile over any set of labels
 *       and time range ({@code histogram_quantile}) instead of averaging percentiles that were computed here;
 *   <li>{@value #SAMPLES}{@code _total} and {@value #ERRORS}{@code _total}: samples and failed samples, the same labels.
 * </ul>
 * It binds a loopback address only: the endpoint has no authentication, and a test's labels and figures stay on the
 * machine. Close it at the end of the test: the port is free again.
 */
@ThreadSafe
public final class PrometheusEndpoint implements AutoCloseable {
    public static final String RESPONSE_TIME = "envbench_response_time_seconds";
    public static final String SAMPLES = "envbench_samples";
    public static final String ERRORS = "envbench_errors";
    public static final String LABEL = "label";
    public static final String ENVIRONMENT = ExposedName.ENVIRONMENT;

    /**
     * The response-time buckets' upper bounds, in seconds: 1 ms to 30 s, about three a decade, where web responses
     * fall (a static file in a millisecond or two, a page in tens to hundreds, a timeout in seconds); +Inf is added.
     * Fixed, so every run and every environment is counted in the same buckets and can be summed.
     */
    public static final List<Double> BUCKETS_SECONDS =
            List.of(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0);

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Histogram responseTime;
    private final Counter samples;
    private final Counter errors;
    private final HTTPServer server;
    private final InetSocketAddress address;

    /** The scrapes seen: how many, when the last began, and the time between the last two (0 before two). */
    private final Object scrapes = new Object();

    @GuardedBy("scrapes")
    private long scrapeCount;

    @GuardedBy("scrapes")
    private long lastScrapeNanos;

    @GuardedBy("scrapes")
    private long scrapeIntervalNanos;

    private PrometheusEndpoint(InetAddress loopback, int port, Supplier<MetricsCollector.Tick> ticks)
            throws IOException {
        responseTime = Histogram.builder()
                .name(RESPONSE_TIME)
                .help("elapsed time of each sample (JMeter's elapsed), by sampler label and environment")
                .unit(Unit.SECONDS)
                .labelNames(LABEL, ENVIRONMENT)
                .classicOnly()
                .classicUpperBounds(BUCKETS_SECONDS.stream()
                        .mapToDouble(Double::doubleValue)
                        .toArray())
                .withoutExemplars()
                .register(registry);
        samples = Counter.builder()
                .name(SAMPLES)
                .help("samples, by sampler label and environment")
                .labelNames(LABEL, ENVIRONMENT)
                .withoutExemplars()
                .register(registry);
        errors = Counter.builder()
                .name(ERRORS)
                .help("failed samples (JMeter's success false), by sampler label and environment")
                .labelNames(LABEL, ENVIRONMENT)
                .withoutExemplars()
                .register(registry);
        registry.register(new TickGauges(ticks, this::scraped));
        try {
            server = HTTPServer.builder()
                    .inetAddress(loopback)
                    .port(port)
                    .registry(registry)
                    .buildAndStart();
        } catch (BindException e) {
            throw new BindException(
                    "port " + port + " on " + loopback.getHostAddress() + " is in use (" + e.getMessage() + ")");
        }
        address = new InetSocketAddress(loopback, server.getPort());
    }

    /**
     * Serves on {@code loopback}:{@code port} from now on (port 0: one the system picks, see {@link #address()}).
     *
     * @param ticks the latest tick of the metrics collector, read at each scrape
     * @throws IllegalArgumentException when the address is not a loopback one
     * @throws BindException            when the port is taken, naming it
     */
    public static PrometheusEndpoint start(InetAddress loopback, int port, Supplier<MetricsCollector.Tick> ticks)
            throws IOException {
        if (!loopback.isLoopbackAddress()) {
            throw new IllegalArgumentException(loopback.getHostAddress() + " is not a loopback address");
        }
        return new PrometheusEndpoint(loopback, port, ticks);
    }

    /** Counts one sample (called by every JMeter thread: a few atomic adds, no lock). */
    public void recordSample(String label, String environment, long elapsedMs, boolean successful) {
        responseTime.labelValues(label, environment).observe(elapsedMs / 1000.0);
        samples.labelValues(label, environment).inc();
        var e = errors.labelValues(label, environment); // at 0 from the first sample on, so rate() has a series
        if (!successful) {
            e.inc();
        }
    }

    public InetSocketAddress address() {
        return address;
    }

    /** Where Prometheus scrapes: {@code http://127.0.0.1:PORT/metrics}. */
    public URI metricsUri() {
        String host = address.getAddress().getHostAddress();
        return URI.create(
                "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort() + "/metrics");
    }

    private void scraped() {
        synchronized (scrapes) {
            long now = System.nanoTime();
            if (scrapeCount > 0) {
                scrapeIntervalNanos = now - lastScrapeNanos;
            }
            lastScrapeNanos = now;
            scrapeCount++;
            scrapes.notifyAll();
        }
    }

    /**
     * Waits for the next scrape to begin, so what was recorded before this call reaches Prometheus before the endpoint
     * closes: at most twice the time between the last two scrapes, and {@code atMost}; not at all before two scrapes
     * (nothing that scrapes it regularly is known then).
     *
     * @return whether a scrape began meanwhile
     */
    public boolean awaitNextScrape(Duration atMost) throws InterruptedException {
        synchronized (scrapes) {
            if (scrapeCount < 2) {
                return false;
            }
            long seen = scrapeCount;
            long until = System.nanoTime() + Math.min(2 * scrapeIntervalNanos, atMost.toNanos());
            for (long left = until - System.nanoTime();
                    scrapeCount == seen && left > 0;
                    left = until - System.nanoTime()) {
                scrapes.wait(Math.max(1, left / 1_000_000));
            }
            return scrapeCount != seen;
        }
    }

    /** Stops serving and frees the port. */
    @Override
    public void close() {
        server.close();
    }

    /** Every column of the latest tick as a gauge, read when Prometheus scrapes (nothing is kept between scrapes). */
    private static final class TickGauges implements MultiCollector {
        private final Supplier<MetricsCollector.Tick> ticks;
        private final Runnable scraped;

        TickGauges(Supplier<MetricsCollector.Tick> ticks, Runnable scraped) {
            this.ticks = ticks;
            this.scraped = scraped;
        }

        @Override
        public MetricSnapshots collect() {
            scraped.run();
            MetricsCollector.Tick t = ticks.get();
            if (t == null) {
                return MetricSnapshots.of();
            }
            Map<String, GaugeSnapshot.Builder> byName = new LinkedHashMap<>();
            t.values().forEach((column, value) -> {
                if (value == null || value.isNaN()) {
                    return;
                }
                ExposedName n = ExposedName.of(column, t.environment());
                Labels.Builder labels = Labels.builder();
                n.labels().forEach(labels::label);
                byName.computeIfAbsent(
                                n.name(),
                                name -> GaugeSnapshot.builder().name(name).help(n.help()))
                        .dataPoint(GaugeDataPointSnapshot.builder()
                                .value(value * n.scale())
                                .labels(labels.build())
                                .build());
            });
            MetricSnapshots.Builder all = MetricSnapshots.builder();
            byName.values().forEach(b -> all.metricSnapshot(b.build()));
            return all.build();
        }
    }
}
