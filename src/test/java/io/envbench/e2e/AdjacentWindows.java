package io.envbench.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

import io.envbench.measure.stats.RunStatistics;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.testelement.AbstractTestElement;

/**
 * The overhead benchmarks' one design: ONE long saturation run of static-web.jmx (bare nginx) in JMeter's engine in the
 * benchmark's JVM, in which the thing measured is switched on and off in adjacent windows, ABBA (on off | off on | ...),
 * so JIT, caches and the machine's drift touch both sides alike and the two windows of a pair are seconds apart rather
 * than a JVM start. Each window's saturation samples are counted, the first {@link #GUARD_MS} after a switch left out;
 * a pair's ratio is on / off. What is printed: the median ratio with its distribution-free 95% interval, the mean with
 * its t interval, and how many pairs the seen spread needs for an interval of +-3% (the goals' margin: 0.97).
 */
final class AdjacentWindows {
    /** After a switch, how long is not counted. */
    static final long GUARD_MS = 500;

    static final String SATURATION_LABEL = "saturation: GET page";

    /** Switches the thing measured; called from the benchmark's thread between windows. */
    interface Switch {
        void switchTo(boolean on) throws Exception;
    }

    /** The pairs' ratios (on / off) and each pair's samples/s. */
    record Result(List<Double> ratios, String detail) {
        RunStatistics statistics() {
            return RunStatistics.of(ratios);
        }

        /** The figures, one line, after {@code what}. */
        String describe(String what, long windowMs) {
            RunStatistics r = statistics();
            RunStatistics.MedianInterval ci = r.medianCi95();
            long needed = (long) Math.ceil(Math.pow(1.96 * r.stdDev() / 0.03, 2));
            return String.format(
                    Locale.ROOT,
                    "%s in adjacent %d s windows of one run (ABBA, first %d ms after each switch left out): "
                            + "median ratio %.4f, 95%% interval %s; mean %.4f +- %.4f (t, 95%%) over %d pairs; sd of a pair %.3f "
                            + "(an interval of +-3%% needs about %d pairs). on/off samples/s:%s",
                    what,
                    windowMs / 1000,
                    GUARD_MS,
                    r.median(),
                    ci.available()
                            ? String.format(Locale.ROOT, "[%.4f, %.4f]", ci.low(), ci.high())
                            : "needs " + RunStatistics.runsNeededForMedianInterval() + "+ pairs",
                    r.mean(),
                    r.ciHalfWidth95(),
                    ratios.size(),
                    r.stdDev(),
                    needed,
                    detail);
        }
    }

    private AdjacentWindows() {}

    /** Seconds of saturation a run of {@code pairs} pairs of windows needs, with room for the start. */
    static long saturationSeconds(int pairs, long windowMs) {
        return 2 * pairs * windowMs / 1000 + 30;
    }

    /**
     * Waits for the engine's saturation phase (the {@code counter} in its tree), leaves its first 5 s out, then measures
     * {@code pairs} pairs; stops the engine at the end with the switch off.
     */
    static Result measure(
            StandardJMeterEngine engine, SaturationCounter counter, Switch thing, int pairs, long windowMs)
            throws Exception {
        List<Double> ratios = new ArrayList<>();
        StringBuilder detail = new StringBuilder();
        try {
            long waitUntil = System.currentTimeMillis() + 120_000;
            while (counter.samples.sum() == 0 && engine.isActive() && System.currentTimeMillis() < waitUntil) {
                Thread.sleep(50);
            }
            if (counter.samples.sum() == 0) {
                throw new IllegalStateException(
                        "no saturation samples: the plan did not reach its saturation phase (is nginx-static there?)");
            }
            Thread.sleep(5000); // the saturation's first seconds (connections, JIT) are left out
            for (int p = 0; p < pairs && engine.isActive(); p++) {
                boolean onFirst = p % 2 == 0; // ABBA
                double first = window(thing, onFirst, windowMs, counter);
                double second = window(thing, !onFirst, windowMs, counter);
                double on = onFirst ? first : second;
                double off = onFirst ? second : first;
                ratios.add(on / off);
                detail.append(String.format(Locale.ROOT, " %.0f/%.0f", on, off));
            }
        } finally {
            thing.switchTo(false);
            engine.stopTest(true);
            while (engine.isActive()) {
                Thread.sleep(100);
            }
        }
        if (ratios.size() < pairs) {
            throw new IllegalStateException(
                    "the saturation phase ended after " + ratios.size() + " of " + pairs + " pairs");
        }
        return new Result(ratios, detail.toString());
    }

    /** One window with the thing on or off: saturation samples per second after the guard. */
    private static double window(Switch thing, boolean on, long windowMs, SaturationCounter counter) throws Exception {
        long t0 = System.nanoTime();
        thing.switchTo(on);
        Thread.sleep(Math.max(0, GUARD_MS - (System.nanoTime() - t0) / 1_000_000));
        long n0 = counter.samples.sum();
        long c0 = System.nanoTime();
        Thread.sleep(Math.max(1, windowMs - (System.nanoTime() - t0) / 1_000_000));
        long n = counter.samples.sum() - n0;
        return n / ((System.nanoTime() - c0) / 1e9);
    }

    /** Counts the saturation phase's samples, the same on both sides (add it to the test plan). */
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
        public void sampleStarted(SampleEvent e) {}

        @Override
        public void sampleStopped(SampleEvent e) {}
    }
}
