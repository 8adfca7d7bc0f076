package io.envbench.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.LongAdder;

import org.apache.jmeter.JMeter;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.reporters.ResultCollector;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.envbench.jmeter.listeners.ResourceMonitor;
import io.envbench.stats.RunStatistics;

/**
 * The Resource Monitor's cost to JMeter's saturation throughput, resolved finely enough to say whether it meets the
 * goal (a ratio of at least 0.97): ONE long saturation run of static-web.jmx (bare nginx) in JMeter's engine in this
 * JVM, in which the plan's own Resource Monitor is switched on and off in adjacent windows, ABBA (on off off on ...),
 * so JIT, caches and the machine's drift touch both sides alike and a pair is seconds apart rather than a JVM start.
 * Each window's saturation samples are counted (the first {@link #GUARD_MS} after a switch left out: the collector's
 * start or stop); a pair's ratio is on / off; the median ratio with its distribution-free 95% interval and the mean
 * with its t interval are printed, and the pairs the seen spread needs for an interval of +-3%. Nothing asserted.
 * Switched on, the monitor is what {@code jmeter -n} runs: its collector (1 s interval, metrics file) and its
 * post-processor on every sample. No JTL is written on either side (at ~10,000 samples/s it would dominate).
 * {@code -Dbench.pairs} (default 40), {@code -Dbench.window.seconds} (default 3).
 */
class ResourceMonitorOverheadBenchmark {
    /** After a switch, how long is not counted. */
    static final long GUARD_MS = 500;
    static final String SATURATION_LABEL = "saturation: GET page";

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
        long saturationSeconds = 2 * pairs * windowMs / 1000 + 30;
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
        SaturationCounter counter = new SaturationCounter();
        tree.add(testPlan, counter);

        StandardJMeterEngine engine = new StandardJMeterEngine();
        engine.configure(tree);
        engine.runTest();
        List<Double> ratios = new ArrayList<>();
        StringBuilder detail = new StringBuilder();
        try {
            long waitUntil = System.currentTimeMillis() + 120_000;
            while (counter.samples.sum() == 0 && engine.isActive() && System.currentTimeMillis() < waitUntil) {
                Thread.sleep(50);
            }
            if (counter.samples.sum() == 0) {
                throw new IllegalStateException("no saturation samples: the plan did not reach its saturation phase (is nginx-static there?)");
            }
            Thread.sleep(5000); // the saturation's first seconds (connections, JIT) are left out
            for (int p = 0; p < pairs && engine.isActive(); p++) {
                boolean onFirst = p % 2 == 0; // ABBA: on off | off on | on off ...
                double first = window(monitor, onFirst, windowMs, counter);
                double second = window(monitor, !onFirst, windowMs, counter);
                double on = onFirst ? first : second;
                double off = onFirst ? second : first;
                ratios.add(on / off);
                detail.append(String.format(Locale.ROOT, " %.0f/%.0f", on, off));
            }
        } finally {
            monitor.switchTo(false);
            engine.stopTest(true);
            while (engine.isActive()) {
                Thread.sleep(100);
            }
        }
        if (monitor.ticksSeen == 0) {
            throw new IllegalStateException("the Resource Monitor's collector never ticked: the figure below would measure nothing");
        }
        RunStatistics r = RunStatistics.of(ratios);
        RunStatistics.MedianInterval ci = r.medianCi95();
        long needed = (long) Math.ceil(Math.pow(1.96 * r.stdDev() / 0.03, 2));
        System.out.printf(Locale.ROOT, "%nJMeter saturation throughput on bare nginx, Resource Monitor (1 s interval, metrics file) on / off in "
                        + "adjacent %d s windows of one run (ABBA, first %d ms after each switch left out): median ratio %.4f, 95%% interval %s; "
                        + "mean %.4f +- %.4f (t, 95%%) over %d pairs; sd of a pair %.3f (an interval of +-3%% needs about %d pairs); "
                        + "%d collector ticks while on. on/off samples/s:%s%n",
                windowMs / 1000, GUARD_MS, r.median(), ci.available() ? String.format(Locale.ROOT, "[%.4f, %.4f]", ci.low(), ci.high())
                        : "needs " + RunStatistics.runsNeededForMedianInterval() + "+ pairs",
                r.mean(), r.ciHalfWidth95(), ratios.size(), r.stdDev(), needed, monitor.ticksSeen, detail);
    }

    /** One window with the monitor on or off: saturation samples per second after the guard. */
    private static double window(SwitchedMonitor monitor, boolean on, long windowMs, SaturationCounter counter) throws Exception {
        long t0 = System.nanoTime();
        monitor.switchTo(on);
        Thread.sleep(Math.max(0, GUARD_MS - (System.nanoTime() - t0) / 1_000_000));
        long n0 = counter.samples.sum();
        long c0 = System.nanoTime();
        Thread.sleep(Math.max(1, windowMs - (System.nanoTime() - t0) / 1_000_000));
        long n = counter.samples.sum() - n0;
        return n / ((System.nanoTime() - c0) / 1e9);
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
                io.envbench.jmeter.JMeterEnvBench.collector().ifPresent(c -> c.addListener(t -> ticksSeen++));
                on = true;
            } else if (!wanted && on) {
                on = false;
                super.testEnded();
            }
        }
    }

    /** Counts the saturation phase's samples, the same on both sides. */
    public static final class SaturationCounter extends AbstractTestElement implements SampleListener, NoThreadClone {
        private static final long serialVersionUID = 1L;
        final transient LongAdder samples = new LongAdder();

        @Override
        public void sampleOccurred(SampleEvent e) {
            if (SATURATION_LABEL.equals(e.getResult().getSampleLabel())) {
                samples.increment();
            }
        }

        @Override
        public void sampleStarted(SampleEvent e) {
        }

        @Override
        public void sampleStopped(SampleEvent e) {
        }
    }
}
