package io.envbench.jmeter.listeners;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.EnvBenchProperties.OnWriteFailure;
import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.jmeter.JmeterCommandLine;
import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.MetricsCollector;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.processor.PostProcessor;
import org.apache.jmeter.samplers.Clearable;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;

/**
 * EnvBench Resource Monitor (element): runs the JVM's metrics collector while the test runs, writing
 * the metrics CSV, and puts the latest key figures into each sample's variables
 * ({@code envbench.host.cpu.pct}, {@code envbench.target.cpu.pct}, {@code envbench.target.mem.bytes}),
 * saved in the JTL through sample_variables. One instance is shared by all threads.
 * While it runs it watches the test's files ({@link WriteWatch}): a metrics file or JTL that cannot be written is an
 * error on the console, and stops the test or marks it ({@code envbench.onWriteFailure}).
 */
public class ResourceMonitor extends AbstractTestElement
        implements TestStateListener, PostProcessor, NoThreadClone, Clearable {
    private static final long serialVersionUID = 1L;

    public static final String INTERVAL = "ResourceMonitor.interval_ms";
    public static final String FILENAME = "ResourceMonitor.filename";
    public static final String DEFAULT_INTERVAL = "${__P(envbench.metrics.interval.ms,1000)}";
    public static final String DEFAULT_FILENAME = "${__P(envbench.metrics.file,envbench-metrics.csv)}";

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

    /**
     * Starts the collector. A bad interval, or a collector that cannot start (e.g. its file), stops the
     * test: a benchmark whose metrics are missing or taken at another rate than asked would mislead. The
     * error goes to jmeter.log and to the user (console, or a dialog in the GUI); nothing is written.
     */
    @Override
    public void testStarted() {
        Duration interval;
        OnWriteFailure onWriteFailure;
        try {
            interval = EnvBenchProperties.metricsInterval(getInterval());
            onWriteFailure = EnvBenchProperties.onWriteFailure();
        } catch (InvalidSettingException e) {
            stopTest("EnvBench Resource Monitor: " + e.getMessage() + ". The test is stopped; no metrics are written.");
            return;
        }
        try {
            Path file = EnvBenchProperties.metricsFile(getFilename(), JmeterCommandLine.resultsFile())
                    .orElse(null);
            boolean first = JMeterEnvBench.collector().isEmpty();
            MetricsCollector c = JMeterEnvBench.joinCollector(interval, file);
            collector = c;
            if (first) {
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
            }
        } catch (IOException e) { // an output that cannot be written at all is an error at the start, naming it
            stopTest("EnvBench Resource Monitor: " + EnvBenchProperties.METRICS_FILE + ": " + e.getMessage()
                    + ". The test is stopped.");
        } catch (RuntimeException e) {
            stopTest("EnvBench Resource Monitor could not start: " + e + ". The test is stopped.");
        }
    }

    private void stopTest(String message) {
        JMeterUtils.reportErrorToUser(message, "EnvBench Resource Monitor");
        stopTest.run();
    }

    /** For tests: what stops the test (JMeter's engine otherwise). */
    void onFailureStop(Runnable stop) {
        this.stopTest = stop;
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
        if (collector != null) {
            collector = null;
            JMeterEnvBench.leaveCollector();
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
