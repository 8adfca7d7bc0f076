package io.envbench.e2e;

import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.LongAdder;
import javax.swing.SwingUtilities;

import io.envbench.jmeter.visualizers.ComparisonVisualizer;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.reporters.ResultCollector;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jmeter.visualizers.Visualizer;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * JMeter's saturation throughput with the EnvBench Comparison listener live against without (run by hand or by
 * {@code ./envbench bench}, not by the suite; needs a display: xvfb-run). A listener's GUI only receives samples in
 * JMeter's GUI mode, never with {@code jmeter -n}, so this runs static-web.jmx (bare nginx) in JMeter's engine in
 * this JVM as the GUI does: the plan's Comparison element gets a live {@link ComparisonVisualizer} as its listener,
 * which is switched on and off in adjacent windows of one saturation run ({@link AdjacentWindows}): on, every sample
 * goes to the visualizer as JMeter's GUI sends it; off, the element hands it to nobody. Nothing asserted.
 * {@code -Dbench.pairs} (default 40), {@code -Dbench.window.seconds} (default 3).
 */
@Isolated
class ComparisonListenerBenchmark {
    @Test
    void comparisonListenerOverheadInAdjacentWindowsOfOneRun() throws Exception {
        Jmeter.docker();
        int pairs = Integer.getInteger("bench.pairs", 40);
        long windowMs = 1000L * Integer.getInteger("bench.window.seconds", 3);
        Properties props = Jmeter.inThisJvm();
        props.setProperty("envbench.warmup.seconds", "10");
        props.setProperty("envbench.light.seconds", "0");
        props.setProperty(
                "envbench.saturation.seconds", Long.toString(AdjacentWindows.saturationSeconds(pairs, windowMs)));
        props.setProperty("envbench.metrics.file", "");
        JMeterUtils.initLocale();

        HashTree tree = SaveService.loadTree(Jmeter.STATIC_WEB.toFile());
        JMeter.convertSubTree(tree, true);
        SearchByClass<ResultCollector> collectors = new SearchByClass<>(ResultCollector.class);
        tree.traverse(collectors);
        ResultCollector comparison = collectors.getSearchResults().stream()
                .filter(c -> c.getName().equals("EnvBench Comparison"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("static-web.jmx has no EnvBench Comparison element"));
        ComparisonVisualizer[] live = new ComparisonVisualizer[1];
        SwingUtilities.invokeAndWait(() -> live[0] = new ComparisonVisualizer());
        SwitchedListener listener = new SwitchedListener(live[0]);
        comparison.setListener(
                listener); // held here strongly: a ResultCollector keeps its listener by a weak reference
        AdjacentWindows.SaturationCounter counter = new AdjacentWindows.SaturationCounter();
        tree.add(tree.getArray()[0], counter);

        StandardJMeterEngine engine = new StandardJMeterEngine();
        engine.configure(tree);
        engine.runTest();
        AdjacentWindows.Result result =
                AdjacentWindows.measure(engine, counter, on -> listener.on = on, pairs, windowMs);
        if (listener.received.sum() == 0) {
            throw new IllegalStateException(
                    "the Comparison listener received no samples: the figure below measures nothing");
        }
        System.out.printf(
                Locale.ROOT,
                "%n%s; the listener received %d samples while on%n",
                result.describe(
                        "JMeter saturation throughput on bare nginx, EnvBench Comparison listener live (GUI-mode engine) on / off",
                        windowMs),
                listener.received.sum());
    }

    /** What JMeter's GUI gives the element as its listener, passing samples to the visualizer only while on. */
    static final class SwitchedListener implements Visualizer {
        private final ComparisonVisualizer visualizer;
        volatile boolean on;
        final LongAdder received = new LongAdder();

        SwitchedListener(ComparisonVisualizer visualizer) {
            this.visualizer = visualizer;
        }

        @Override
        public void add(SampleResult sample) {
            if (on) {
                received.increment();
                visualizer.add(sample);
            }
        }

        @Override
        public boolean isStats() {
            return visualizer.isStats();
        }
    }
}
