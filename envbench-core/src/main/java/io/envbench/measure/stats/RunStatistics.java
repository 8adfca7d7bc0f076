package io.envbench.measure.stats;

import java.util.Arrays;
import java.util.List;

import net.jcip.annotations.Immutable;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

/**
 * One figure (e.g. throughput) measured once per repeated run: the median of the runs with its distribution-free 95%
 * confidence interval (the centre the verdicts use), and the mean, 95% interval of the mean (Student's t), coefficient
 * of variation and how many runs would bring the interval within a target (the variation warning). Immutable.
 */
@Immutable
public final class RunStatistics {
    /** Variation across runs above this (3.5%) earns a warning. */
    public static final double CV_WARNING = 0.035;
    /** Confidence of {@link #medianCi95()}. */
    public static final double CONFIDENCE = 0.95;

    /**
     * A confidence interval of the median between two order statistics.
     *
     * @param low the lower bound, NaN when unavailable
     * @param high the upper bound, NaN when unavailable
     * @param confidence the interval's actual confidence (at least the one asked for), NaN when unavailable
     * @param available false when the runs are too few for any interval at that confidence
     */
    public record MedianInterval(double low, double high, double confidence, boolean available) {
        static final MedianInterval UNAVAILABLE = new MedianInterval(Double.NaN, Double.NaN, Double.NaN, false);
    }

    private final double[] sorted;
    private final SummaryStatistics s = new SummaryStatistics();

    private RunStatistics(double[] values) {
        sorted = values.clone();
        Arrays.sort(sorted);
        for (double v : sorted) {
            s.addValue(v);
        }
    }

    public static RunStatistics of(List<Double> perRun) {
        return new RunStatistics(
                perRun.stream().mapToDouble(Double::doubleValue).toArray());
    }

    public long runs() {
        return sorted.length;
    }
    /** The per-run values in ascending order (a copy). */
    public double[] values() {
        return sorted.clone();
    }

    public double mean() {
        return s.getMean();
    }

    public double stdDev() {
        return s.getStandardDeviation();
    }

    /** The median of the runs (mean of the two middle values for an even count); NaN without runs. */
    public double median() {
        int n = sorted.length;
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * 95% confidence interval of the median from order statistics, as benchstat (go-moremath {@code QuantileCI}): the
     * number of runs below the true median is Binomial(n, 1/2); starting at its mode, add the likelier neighbouring
     * count (the lower one on a tie) until the covered probability reaches 95%; the bounds are the order statistics
     * at the ends. Needs {@link #runsNeededForMedianInterval()} runs (6); fewer give an unavailable interval.
     */
    public MedianInterval medianCi95() {
        int[] orders = medianIntervalOrders(sorted.length, CONFIDENCE);
        if (orders == null) {
            return MedianInterval.UNAVAILABLE;
        }
        BinomialDistribution below = new BinomialDistribution(null, sorted.length, 0.5);
        double covered = 0;
        for (int k = orders[0]; k < orders[1]; k++) {
            covered += below.probability(k);
        }
        return new MedianInterval(sorted[orders[0] - 1], sorted[orders[1] - 1], covered, true);
    }

    /** The fewest runs with a {@link #CONFIDENCE} interval of the median (6 at 95%). */
    public static int runsNeededForMedianInterval() {
        int n = 1;
        while (medianIntervalOrders(n, CONFIDENCE) == null) {
            n++;
        }
        return n;
    }

    /** 1-based order statistics {low, high} bounding the median's interval, or null if one bound lies outside the sample. */
    private static int[] medianIntervalOrders(int n, double confidence) {
        if (n < 2) {
            return null;
        }
        BinomialDistribution below = new BinomialDistribution(null, n, 0.5);
        // [l, r): counts of runs below the median summed so far
        int l = (int) Math.ceil((n + 1) * 0.5) - 1;
        int r = l + 1;
        double covered = below.probability(l);
        while (covered < confidence) {
            double left = l > 0 ? below.probability(l - 1) : 0;
            double right = r <= n ? below.probability(r) : 0;
            if (left == 0 && right == 0) {
                break;
            }
            if (left >= right) {
                covered += left;
                l--;
            } else {
                covered += right;
                r++;
            }
        }
        return l >= 1 && r <= n ? new int[] {l, r} : null;
    }

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
