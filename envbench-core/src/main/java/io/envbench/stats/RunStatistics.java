package io.envbench.stats;

import java.util.List;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

/**
 * One figure (e.g. throughput) measured once per repeated run: mean, 95% confidence interval
 * (Student's t), coefficient of variation, and how many runs would bring the interval within a target.
 */
public final class RunStatistics {
    /** Variation across runs above this (3.5%) earns a warning. */
    public static final double CV_WARNING = 0.035;

    private final SummaryStatistics s = new SummaryStatistics();

    public static RunStatistics of(List<Double> perRun) {
        RunStatistics r = new RunStatistics();
        perRun.forEach(r.s::addValue);
        return r;
    }

    public long runs() { return s.getN(); }
    public double mean() { return s.getMean(); }
    public double stdDev() { return s.getStandardDeviation(); }

    /** Half-width of the 95% confidence interval of the mean; NaN with fewer than 2 runs. */
    public double ciHalfWidth95() {
        if (s.getN() < 2) {
            return Double.NaN;
        }
        double t = new TDistribution(null, s.getN() - 1).inverseCumulativeProbability(0.975);
        return t * s.getStandardDeviation() / Math.sqrt(s.getN());
    }

    /** Coefficient of variation (stddev / mean); NaN with fewer than 2 runs. */
    public double cv() {
        return s.getN() < 2 || s.getMean() == 0 ? Double.NaN : s.getStandardDeviation() / Math.abs(s.getMean());
    }

    public boolean tooVariable() {
        return cv() > CV_WARNING;
    }

    /**
     * Runs needed for the 95% interval's half-width to be at most {@link #CV_WARNING} of the mean,
     * assuming the variation seen so far: the smallest n with t(0.975, n-1) x CV / sqrt(n) <= 3.5%.
     */
    public long runsNeeded() {
        double cv = cv();
        if (Double.isNaN(cv)) {
            return 2;
        }
        for (long n = 2; n < 10_000; n++) {
            double t = new TDistribution(null, n - 1).inverseCumulativeProbability(0.975);
            if (t * cv / Math.sqrt(n) <= CV_WARNING) {
                return n;
            }
        }
        return 10_000;
    }
}
