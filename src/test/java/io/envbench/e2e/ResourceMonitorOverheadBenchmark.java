package io.envbench.e2e;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.jmeter.listeners.ResourceMonitor;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.reporters.ResultCollector;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The Resource Monitor's cost to JMeter's saturation throughput, resolved finely enough to say whether it meets the
 * goal (a ratio of at least 0.97), in {@link AdjacentWindows}: the plan's own Resource Monitor is switched on and off
 * in adjacent windows of one saturation run (the guard after a switch leaves out the collector's start or stop).
 * Nothing asserted.
 * Switched on, the monitor is what {@code jmeter -n} runs: its collector (1 s interval, metrics file) and its
 * post-processor on every sample. No JTL is written on either side (at ~10,000 samples/s it would dominate).
 * {@code -Dbench.pairs} (default 40), {@code -Dbench.window.seconds} (default 3).
 */
@Isolated
class ResourceMonitorOverheadBenchmark {
    @TempDir
    Path dir;

    @Test
    void resourceMonitorOverheadInAdjacentWindowsOfOneRun() throws Exception {
        Jmeter.docker();
        int pairs = Integer.getInteger("bench.pairs", 40);
        long windowMs = 1000L * Integer.getInteger("bench.window.seconds", 3);
        Properties props = Jmeter.inThisJvm();
        props.setProperty("envbench.warmup.seconds", "10");
        props.setProperty("envbench.light.seconds", "0");
        long saturationSeconds = AdjacentWindows.saturationSeconds(pairs, windowMs);
        props.setProperty("envbench.saturation.seconds", Long.toString(saturationSeconds));
        props.setProperty("envbench.metrics.interval.ms", "1000");
        JMeterUtils.initLocale();

        HashTree tree = SaveService.loadTree(Jmeter.STATIC_WEB.toFile());
        JMeter.convertSubTree(tree, true);
        SearchByClass<ResultCollector> collectors = new SearchByClass<>(ResultCollector.class);
        tree.traverse(collectors);
        collectors.getSearchResults().forEach(c -> c.setEnabled(false)); // no listener GUI in jmeter -n either
        SearchByClass<ResourceMonitor> monitors = new SearchByClass<>(ResourceMonitor.class);
        tree.traverse(monitors);
        ResourceMonitor planned = monitors.getSearchResults().iterator().next();
        SwitchedMonitor monitor = new SwitchedMonitor();
        monitor.setName(planned.getName());
        monitor.setInterval("1000");
        monitor.setFilename(dir.resolve("metrics.csv").toString());
        Object testPlan = tree.getArray()[0];
        if (!(testPlan instanceof TestPlan)) {
            throw new IllegalStateException("static-web.jmx's root is not its test plan: " + testPlan);
        }
        tree.getTree(testPlan).replaceKey(planned, monitor);
        AdjacentWindows.SaturationCounter counter = new AdjacentWindows.SaturationCounter();
        tree.add(testPlan, counter);

        StandardJMeterEngine engine = new StandardJMeterEngine();
        engine.configure(tree);
        engine.runTest();
        AdjacentWindows.Result result = AdjacentWindows.measure(engine, counter, monitor::switchTo, pairs, windowMs);
        if (monitor.ticksSeen == 0) {
            throw new IllegalStateException(
                    "the Resource Monitor's collector never ticked: the figure below would measure nothing");
        }
        System.out.printf(
                Locale.ROOT,
                "%n%s; %d collector ticks while on%n",
                result.describe(
                        "JMeter saturation throughput on bare nginx, Resource Monitor (1 s interval, metrics file) on / off",
                        windowMs),
                monitor.ticksSeen);
    }

    /**
     * The plan's Resource Monitor, started and stopped by the benchmark instead of by the test's start and end: on,
     * it is the plain Resource Monitor (its collector runs, its post-processor puts the figures on every sample); off,
     * it has no collector, and its post-processor returns at once as with a monitor whose collector is gone.
     */
    static final class SwitchedMonitor extends ResourceMonitor {
        private static final long serialVersionUID = 1L;
        private transient boolean on;
        transient volatile long ticksSeen;

        @Override
        public void testStarted() {
            // the benchmark switches it
        }

        @Override
        public void testEnded() {
            switchTo(false);
        }

        synchronized void switchTo(boolean wanted) {
            if (wanted && !on) {
                super.testStarted();
                JMeterEnvBench.collector().ifPresent(c -> c.addListener(t -> ticksSeen++));
                on = true;
            } else if (!wanted && on) {
                on = false;
                super.testEnded();
            }
        }
    }
}
