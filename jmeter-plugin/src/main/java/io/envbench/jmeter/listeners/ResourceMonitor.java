package io.envbench.jmeter.listeners;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.EnvBenchProperties.OnWriteFailure;
import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.jmeter.JmeterCommandLine;
import io.envbench.measure.influxdb.InfluxDbTarget;
import io.envbench.measure.influxdb.InfluxDbWriter;
import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.prometheus.PrometheusEndpoint;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.processor.PostProcessor;
import org.apache.jmeter.samplers.Clearable;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * EnvBench Resource Monitor (element): runs the JVM's metrics collector while the test runs, writing
 * the metrics CSV, and puts the latest key figures into each sample's variables
 * ({@code envbench.host.cpu.pct}, {@code envbench.target.cpu.pct}, {@code envbench.target.mem.bytes}),
 * saved in the JTL through sample_variables. One instance is shared by all threads.
 * While it runs it watches the test's files ({@link WriteWatch}): a metrics file or JTL that cannot be written is an
 * error on the console, and stops the test or marks it ({@code envbench.onWriteFailure}).
 * With {@code envbench.prometheus.port} set it serves Prometheus on a loopback address while the test runs
 * ({@link PrometheusEndpoint}): the collector's figures, and the response times of the samples in its scope as a
 * histogram per label and environment. With {@code envbench.influxdb.url} (or its field) set it writes the same
 * figures to an InfluxDB 1.x in line protocol ({@link InfluxDbWriter}), from a thread of its own.
 */
public class ResourceMonitor extends AbstractTestElement
        implements TestStateListener, PostProcessor, SampleListener, NoThreadClone, Clearable {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(ResourceMonitor.class);

    public static final String INTERVAL = "ResourceMonitor.interval_ms";
    public static final String FILENAME = "ResourceMonitor.filename";
    public static final String DEFAULT_INTERVAL = "${__P(envbench.metrics.interval.ms,1000)}";
    public static final String DEFAULT_FILENAME = "${__P(envbench.metrics.file,envbench-metrics.csv)}";
    /** Empty by default: the property ({@code envbench.prometheus.port}, {@code envbench.influxdb.url}) decides. */
    public static final String PROMETHEUS_PORT = "ResourceMonitor.prometheus_port";

    public static final String INFLUXDB_URL = "ResourceMonitor.influxdb_url";

    public static final String VAR_HOST_CPU = MetricName.HOST_CPU.sampleVariable();
    public static final String VAR_TARGET_CPU = MetricName.TARGET_CPU.sampleVariable();
    public static final String VAR_TARGET_MEM = MetricName.TARGET_MEM.sampleVariable();

    private transient volatile MetricsCollector collector;
    /** Like a sampler error with "Stop Test": threads finish their sample, no thread group starts after. */
    private transient Runnable stopTest = StandardJMeterEngine::stopEngine;
    /** The figures of the latest tick, formatted once per tick: samples read them thousands of times a second. */
    private transient volatile String[] figures = {"", "", ""};

    private transient volatile MetricsCollector.Tick figuresOf;
    /** Of the monitor that started the collector: several monitors in a plan share one, and one watch tells once. */
    private transient volatile WriteWatch watch;
    /** Of the monitor that started the collector, with the watch: one endpoint, each sample counted once. */
    private transient volatile PrometheusEndpoint prometheus;
    /** Of the monitor that started the collector, with the watch: one writer, each sample counted once. */
    private transient volatile InfluxDbWriter influxDb;
    /** The writer's listener on the collector's ticks, removed at the end (another monitor may keep the collector). */
    private transient volatile Consumer<MetricsCollector.Tick> influxDbTicks;
    /** How an error reaches the user: jmeter.log and the console, or a dialog in the GUI (tests replace it). */
    private transient Consumer<String> tellUser = m -> JMeterUtils.reportErrorToUser(m, "EnvBench Resource Monitor");
    /** What makes jmeter -n exit with 1 after a file failed (tests replace it). */
    private transient Runnable exitWithOne = ResourceMonitor::exitWithOneAfterJMeter;

    public String getInterval() {
        return getPropertyAsString(INTERVAL, DEFAULT_INTERVAL);
    }

    public void setInterval(String ms) {
        setProperty(INTERVAL, ms);
    }

    public String getFilename() {
        return getPropertyAsString(FILENAME, DEFAULT_FILENAME);
    }

    public void setFilename(String file) {
        setProperty(FILENAME, file);
    }

    /** The field "Prometheus port": empty leaves it to {@code envbench.prometheus.port}. */
    public String getPrometheusPort() {
        return getPropertyAsString(PROMETHEUS_PORT, "");
    }

    public void setPrometheusPort(String port) {
        setProperty(PROMETHEUS_PORT, port, "");
    }

    /** The field "InfluxDB URL": empty leaves it to {@code envbench.influxdb.url}. */
    public String getInfluxDbUrl() {
        return getPropertyAsString(INFLUXDB_URL, "");
    }

    public void setInfluxDbUrl(String url) {
        setProperty(INFLUXDB_URL, url, "");
    }

    /**
     * Starts the collector. A bad interval, or a collector that cannot start (e.g. its file), stops the
     * test: a benchmark whose metrics are missing or taken at another rate than asked would mislead. The
     * error goes to jmeter.log and to the user (console, or a dialog in the GUI); nothing is written.
     */
    @Override
    public void testStarted() {
        Duration interval;
        OnWriteFailure onWriteFailure;
        Optional<InetSocketAddress> prometheusAt;
        Optional<InfluxDbTarget> influxDbAt;
        try {
            interval =
                    EnvBenchProperties.metricsInterval(EnvBenchProperties.fieldAsRun(this, INTERVAL, DEFAULT_INTERVAL));
            onWriteFailure = EnvBenchProperties.onWriteFailure();
            prometheusAt = EnvBenchProperties.prometheusEndpoint(getPrometheusPort());
            influxDbAt = EnvBenchProperties.influxDb(getInfluxDbUrl());
        } catch (InvalidSettingException e) {
            stopTest("EnvBench Resource Monitor: " + e.getMessage() + ". The test is stopped; no metrics are written.");
            return;
        }
        try {
            Path file = EnvBenchProperties.metricsFile(
                            EnvBenchProperties.fieldAsRun(this, FILENAME, DEFAULT_FILENAME),
                            JmeterCommandLine.resultsFile())
                    .orElse(null);
            // the first monitor of a plan sets up the collector's outputs before its first tick, so that each
            // output (the JTL check, Prometheus, InfluxDB) has every row the metrics file has
            collector = JMeterEnvBench.joinCollector(interval, file, c -> {
                WriteWatch w = new WriteWatch(
                        onWriteFailure,
                        message -> JMeterUtils.reportErrorToUser(message, "EnvBench"),
                        () -> stopTest.run(),
                        JtlWriters::open);
                c.file().ifPresent(f -> {
                    c.onFileStopped(why -> w.metricsFileStopped(f, why));
                    w.watchMetricsFile(f);
                });
                JmeterCommandLine.resultsFile().ifPresent(w::expectJtl);
                c.addListener(tick -> w.checkJtlsSoon());
                watch = w;
                prometheusAt.ifPresent(at -> startPrometheus(at, c));
                influxDbAt.ifPresent(at -> {
                    InfluxDbWriter i = InfluxDbWriter.start(at, "EnvBench Resource Monitor");
                    influxDb = i;
                    influxDbTicks = i::tick;
                    c.addListener(influxDbTicks);
                });
            });
        } catch (IOException e) { // an output that cannot be written at all is an error at the start, naming it
            stopTest("EnvBench Resource Monitor: " + EnvBenchProperties.METRICS_FILE + ": " + e.getMessage()
                    + ". The test is stopped.");
        } catch (RuntimeException e) {
            stopTest("EnvBench Resource Monitor could not start: " + e + ". The test is stopped.");
        }
    }

    /**
     * A port that is taken is said, naming the property and the port, and the test runs without the endpoint: its
     * results and metrics file do not depend on it, and a run of hours should not be lost to a dashboard.
     */
    private void startPrometheus(InetSocketAddress at, MetricsCollector c) {
        try {
            PrometheusEndpoint p = PrometheusEndpoint.start(at.getAddress(), at.getPort(), c::latest);
            prometheus = p;
            log.info("EnvBench Resource Monitor: Prometheus metrics at {}", p.metricsUri());
        } catch (IOException | RuntimeException e) {
            tellUser.accept("EnvBench Resource Monitor: " + EnvBenchProperties.PROMETHEUS_PORT + "=" + at.getPort()
                    + ": no Prometheus endpoint: " + e.getMessage() + ". The test runs without it; free port "
                    + at.getPort() + " or give another, e.g. -J" + EnvBenchProperties.PROMETHEUS_PORT + "="
                    + (at.getPort() < 65535 ? at.getPort() + 1 : 9270) + ".");
        }
    }

    private void stopTest(String message) {
        tellUser.accept(message);
        stopTest.run();
    }

    /** For tests: what stops the test (JMeter's engine otherwise). */
    void onFailureStop(Runnable stop) {
        this.stopTest = stop;
    }

    /** For tests: how errors reach the user. */
    void onTellUser(Consumer<String> tell) {
        this.tellUser = tell;
    }

    /** For tests: the Prometheus endpoint of this monitor's test, while it runs. */
    PrometheusEndpoint prometheus() {
        return prometheus;
    }

    /** For tests: the InfluxDB writer of this monitor's test, while it runs. */
    InfluxDbWriter influxDb() {
        return influxDb;
    }

    /** For tests: what makes JMeter exit with 1 after a file failed. */
    void onFailureExit(Runnable exit) {
        this.exitWithOne = exit;
    }

    /** For tests: the watch of this monitor's test, while it runs. */
    WriteWatch watch() {
        return watch;
    }

    /**
     * In {@code jmeter -n} (not in the GUI, nor in a jmeter-server, which serves the next test): once JMeter has
     * finished (its listeners closed their files, its report is written) and only this thread keeps the JVM, it exits
     * with 1, so a script or CI job running JMeter sees the incomplete results. JMeter itself exits 0 whatever happened.
     */
    static void exitWithOneAfterJMeter() {
        if (!JMeter.isNonGUI()) {
            return;
        }
        Thread exit = new Thread(
                () -> {
                    Thread self = Thread.currentThread();
                    while (true) {
                        boolean jmeterRuns = Thread.getAllStackTraces().keySet().stream()
                                .anyMatch(t -> t != self
                                        && t.isAlive()
                                        && !t.isDaemon()
                                        && !t.getName().equals("DestroyJavaVM"));
                        if (!jmeterRuns) {
                            System.exit(1);
                        }
                        try {
                            Thread.sleep(100);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                },
                "envbench-exit-status");
        exit.setDaemon(false); // it holds the JVM until JMeter is done, then ends it with 1
        exit.start();
    }

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    @Override
    public void testEnded() {
        WriteWatch w = watch;
        watch = null;
        PrometheusEndpoint p = prometheus;
        prometheus = null;
        if (p != null) {
            p.close(); // the port is free for the next test
        }
        InfluxDbWriter i = influxDb;
        influxDb = null;
        MetricsCollector c = collector;
        if (c != null) {
            collector = null;
            JMeterEnvBench.leaveCollector();
        }
        if (i != null) {
            if (c != null) {
                c.removeListener(influxDbTicks);
            }
            i.close(); // after the collector's last tick: the samples since then are stamped now and sent
        }
        if (w != null) {
            w.testEnded(exitWithOne);
        }
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }

    /**
     * JMeter's Clear All picks the tree nodes whose element is {@code Clearable} and clears their GUIs: the series
     * shown live in the GUI. The element keeps no readings of its own (the metrics file has them).
     */
    @Override
    public void clearData() {
        // nothing held here
    }

    /**
     * Each sample in the monitor's scope, on its thread: its elapsed time counted under its label and environment (the
     * thread's {@code envbench.env}, as the Comparison listener counts it; "none" without one).
     */
    @Override
    public void sampleOccurred(SampleEvent e) {
        WriteWatch w = watch;
        if (w != null) {
            w.sampleSeen();
        }
        PrometheusEndpoint p = prometheus;
        InfluxDbWriter i = influxDb;
        if (p == null && i == null) {
            return;
        }
        SampleResult r = e.getResult();
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        String v = vars == null ? null : vars.get(EnvBenchProperties.ENV_VARIABLE);
        String env = v == null || v.isEmpty() ? "none" : v;
        if (p != null) {
            p.recordSample(r.getSampleLabel(), env, r.getTime(), r.isSuccessful());
        }
        if (i != null) {
            i.recordSample(r.getSampleLabel(), env, r.getTime(), r.isSuccessful());
        }
    }

    @Override
    public void sampleStarted(SampleEvent e) {
        // only ends count
    }

    @Override
    public void sampleStopped(SampleEvent e) {
        // only ends count
    }

    /** Runs after each sample, before listeners see it: the JTL row carries what the machine was doing. */
    @Override
    public void process() {
        MetricsCollector c = collector;
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (c == null || vars == null) {
            return;
        }
        MetricsCollector.Tick t = c.latest();
        if (t != figuresOf) {
            figures = new String[] {
                fmt(t.get(MetricName.HOST_CPU.column())),
                fmt(t.get(MetricName.TARGET_CPU.column())),
                fmt(t.get(MetricName.TARGET_MEM.column()))
            };
            figuresOf = t;
        }
        String[] f = figures;
        vars.put(VAR_HOST_CPU, f[0]);
        vars.put(VAR_TARGET_CPU, f[1]);
        vars.put(VAR_TARGET_MEM, f[2]);
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.1f", v);
    }
}
