package io.envbench.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

import javax.swing.SwingUtilities;

import org.apache.jmeter.JMeter;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.reporters.ResultCollector;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.envbench.jmeter.visualizers.ComparisonVisualizer;
import io.envbench.stats.Comparison;
import io.envbench.stats.RunStatistics;

/**
 * JMeter's saturation throughput with the EnvBench Comparison listener live against without (run by hand or by
 * {@code ./envbench bench}, not by the suite; needs a display: xvfb-run). A listener's GUI only receives samples in
 * JMeter's GUI mode, never with {@code jmeter -n}, so this runs static-web.jmx (bare nginx) in JMeter's engine in
 * this JVM as the GUI does: the plan's Comparison element gets a live {@link ComparisonVisualizer} as its listener,
 * or none. ABBA pairs; the ratio of each pair, their median and its 95% interval are printed, nothing asserted.
 */
class ComparisonListenerBenchmark {
    @TempDir
    Path dir;
    /** Samples the live listener received: proves it was live (a listener GUI gets none with jmeter -n). */
    private final java.util.concurrent.atomic.LongAdder received = new java.util.concurrent.atomic.LongAdder();
    /** The listener of the run going on, held strongly: a ResultCollector keeps it only by a weak reference. */
    private org.apache.jmeter.visualizers.Visualizer attached;

    @Test
    void comparisonListenerOverheadOnJmetersMaximumThroughput() throws Exception {
        Properties props = Jmeter.inThisJvm();
        props.setProperty("envbench.warmup.seconds", "3");
        props.setProperty("envbench.light.seconds", "0");
        props.setProperty("envbench.saturation.seconds", System.getProperty("bench.seconds", "10"));
        props.setProperty("envbench.metrics.file", "");
        JMeterUtils.initLocale();
        int rounds = Integer.getInteger("bench.rounds", 6);
        List<Double> ratios = new ArrayList<>();
        StringBuilder detail = new StringBuilder();
        saturation(true, "jit-warm-up"); // the first run in a fresh JVM is far slower whatever it has; left out
        if (received.sum() == 0) {
            throw new IllegalStateException("the Comparison listener received no samples: there would be nothing to measure");
        }
        for (int round = 0; round < rounds; round++) {
            // ABBA order: whatever a run leaves behind (sockets, caches, JIT) touches both sides alike
            boolean withFirst = round % 2 == 1;
            double first = saturation(withFirst, "r" + round + "a");
            double second = saturation(!withFirst, "r" + round + "b");
            double with = withFirst ? first : second;
            double without = withFirst ? second : first;
            ratios.add(with / without);
            detail.append(String.format(Locale.ROOT, " %.0f/%.0f", with, without));
        }
        RunStatistics r = RunStatistics.of(ratios);
        RunStatistics.MedianInterval ci = r.medianCi95();
        System.out.printf(Locale.ROOT, "%nJMeter saturation throughput on bare nginx, with / without the EnvBench Comparison listener live "
                + "(GUI-mode engine, %s s saturation): median ratio %.3f over %d ABBA pairs, 95%% interval %s (with/without req/s:%s; "
                + "the listener received %d samples)%n",
                props.getProperty("envbench.saturation.seconds"), r.median(), rounds,
                ci.available() ? String.format(Locale.ROOT, "[%.3f, %.3f]", ci.low(), ci.high())
                        : "needs " + RunStatistics.runsNeededForMedianInterval() + "+ pairs (mean " + String.format(Locale.ROOT, "%.3f", r.mean()) + ")",
                detail, received.sum());
        if (received.sum() == 0) {
            throw new IllegalStateException("the Comparison listener received no samples: the figure above measures nothing");
        }
    }

    /** One run of static-web.jmx in this JVM's engine; the saturation phase's throughput. */
    private double saturation(boolean withListener, String name) throws Exception {
        HashTree tree = SaveService.loadTree(Jmeter.STATIC_WEB.toFile());
        JMeter.convertSubTree(tree, true);
        SearchByClass<ResultCollector> collectors = new SearchByClass<>(ResultCollector.class);
        tree.traverse(collectors);
        ComparisonVisualizer[] live = new ComparisonVisualizer[1];
        for (ResultCollector c : collectors.getSearchResults()) {
            if (c.getName().equals("EnvBench Comparison") && withListener) {
                SwingUtilities.invokeAndWait(() -> live[0] = new ComparisonVisualizer());
                ComparisonVisualizer v = live[0];
                // JMeter holds a listener weakly (the GUI holds it strongly): keep it for the run
                attached = new org.apache.jmeter.visualizers.Visualizer() { // what JMeter's GUI does, counting what arrives
                    @Override
                    public void add(org.apache.jmeter.samplers.SampleResult sample) {
                        received.increment();
                        v.add(sample);
                    }

                    @Override
                    public boolean isStats() {
                        return v.isStats();
                    }
                };
                c.setListener(attached);
            }
        }
        Path jtl = dir.resolve(name + ".jtl");
        ResultCollector file = new ResultCollector();
        file.setFilename(jtl.toString());
        tree.add(tree.getArray()[0], file);
        StandardJMeterEngine engine = new StandardJMeterEngine();
        engine.configure(tree);
        engine.runTest();
        while (engine.isActive()) {
            Thread.sleep(100);
        }
        Thread.sleep(500);
        attached = null;
        return Comparison.of(List.of(jtl)).get("bare", "saturation: GET page").throughputPerSec();
    }
}
