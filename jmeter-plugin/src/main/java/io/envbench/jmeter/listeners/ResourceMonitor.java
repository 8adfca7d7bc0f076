package io.envbench.jmeter.listeners;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import org.apache.jmeter.processor.PostProcessor;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.metrics.MetricsCollector;

/**
 * EnvBench Resource Monitor (element): runs the JVM's metrics collector while the test runs, writing
 * the metrics CSV, and puts the latest key figures into each sample's variables
 * ({@code envbench.host.cpu.pct}, {@code envbench.target.cpu.pct}, {@code envbench.target.mem.bytes}),
 * saved in the JTL through sample_variables. One instance is shared by all threads.
 */
public class ResourceMonitor extends AbstractTestElement implements TestStateListener, PostProcessor,
        org.apache.jmeter.engine.util.NoThreadClone {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(ResourceMonitor.class);

    public static final String INTERVAL = "ResourceMonitor.interval_ms";
    public static final String FILENAME = "ResourceMonitor.filename";
    public static final String DEFAULT_INTERVAL = "${__P(envbench.metrics.interval.ms,1000)}";
    public static final String DEFAULT_FILENAME = "${__P(envbench.metrics.file,envbench-metrics.csv)}";

    public static final String VAR_HOST_CPU = "envbench.host.cpu.pct";
    public static final String VAR_TARGET_CPU = "envbench.target.cpu.pct";
    public static final String VAR_TARGET_MEM = "envbench.target.mem.bytes";

    private transient volatile MetricsCollector collector;
    /** The figures of the latest tick, formatted once per tick: samples read them thousands of times a second. */
    private transient volatile String[] figures = {"", "", ""};
    private transient volatile MetricsCollector.Tick figuresOf;

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

    @Override
    public void testStarted() {
        long ms;
        try {
            ms = Long.parseLong(getInterval().trim());
        } catch (NumberFormatException e) {
            log.error("EnvBench Resource Monitor: interval: '{}' is not a number of milliseconds; using 1000", getInterval());
            ms = 1000;
        }
        long min = MetricsCollector.MIN_INTERVAL.toMillis();
        if (ms < min) {
            log.error("EnvBench Resource Monitor: interval: {} ms is below the minimum of {} ms; using {}", ms, min, min);
            ms = min;
        }
        String file = getFilename().trim();
        try {
            collector = JMeterEnvBench.joinCollector(Duration.ofMillis(ms), file.isEmpty() ? null : Path.of(file));
        } catch (IOException | RuntimeException e) {
            log.error("EnvBench Resource Monitor could not start: {}", e.toString());
        }
    }

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    @Override
    public void testEnded() {
        if (collector != null) {
            collector = null;
            JMeterEnvBench.leaveCollector();
        }
    }

    @Override
    public void testEnded(String host) {
        testEnded();
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
            figures = new String[] {fmt(t.get("host.cpu.pct")), fmt(t.get("target.cpu.pct")), fmt(t.get("target.mem.bytes"))};
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
