package io.envbench.measure.stats;

import java.util.Arrays;
import java.util.function.DoublePredicate;

/**
 * The noise floor of one comparison: the smallest change of an environment's figure against the baseline's that its
 * runs could have called significant. Each side's runs are divided by their own median, so only their spread is left;
 * then this environment's are scaled by 1 + d (and by 1 - d) until the exact Mann-Whitney test on them against the
 * baseline's passes the given significance rule. The answer is the larger of the two d, in %: a "~" verdict says no
 * change larger than that happened, as far as this many runs can tell. Stateless.
 */
public final class DetectableChange {
    /** Just past a tie between two scaled values, so that the change crosses it. */
    private static final double PAST = 1e-9;

    private DetectableChange() {}

    /**
     * @param runs this environment's per-run values
     * @param baselineRuns the baseline's
     * @param significant whether a raw p-value would be called significant (within a family: after its adjustment)
     * @return the smallest detectable change in % (of the median); infinite when even runs entirely apart would not
     *     be significant; NaN without runs on a side or with a median that is not above 0 (a change in % of 0 means
     *     nothing)
     */
    public static double pct(double[] runs, double[] baselineRuns, DoublePredicate significant) {
        if (runs.length == 0 || baselineRuns.length == 0) {
            return Double.NaN;
        }
        double[] a = centred(runs);
        double[] b = centred(baselineRuns);
        if (a == null || b == null) {
            return Double.NaN;
        }
        double up = smallestFactor(a, b, significant, true);
        double down = smallestFactor(a, b, significant, false);
        return Math.max(up, down);
    }

    private static double[] centred(double[] values) {
        double median = RunStatistics.of(Arrays.stream(values).boxed().toList()).median();
        if (!(median > 0) || Arrays.stream(values).anyMatch(v -> v < 0)) {
            return null;
        }
        return Arrays.stream(values).map(v -> v / median).toArray();
    }

    /**
     * The smallest change, in %, with which a x factor tests significant against b; the factor only changes the test
     * where a scaled value passes a value of b, so only those factors are tried, by bisection (p falls as they part).
     */
    private static double smallestFactor(double[] a, double[] b, DoublePredicate significant, boolean up) {
        // a run at 0 (a 90% line of 0 ms on a fast local target) stays 0 whatever the factor: it crosses nothing
        double[] crossings = Arrays.stream(a)
                .filter(x -> x > 0)
                .flatMap(x -> Arrays.stream(b).map(y -> y / x))
                .filter(f -> up ? f >= 1 : f <= 1)
                .distinct()
                .toArray();
        Arrays.sort(crossings);
        double[] factors = up ? crossings : reversed(crossings);
        if (factors.length == 0 || !significantAt(a, b, factors[factors.length - 1], up, significant)) {
            return Double.POSITIVE_INFINITY;
        }
        int lo = 0;
        int hi = factors.length - 1; // significant at hi
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (significantAt(a, b, factors[mid], up, significant)) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return 100 * Math.abs(factors[hi] - 1);
    }

    private static boolean significantAt(
            double[] a, double[] b, double factor, boolean up, DoublePredicate significant) {
        double f = factor * (up ? 1 + PAST : 1 - PAST);
        double[] scaled = Arrays.stream(a).map(x -> x * f).toArray();
        return significant.test(MannWhitney.test(scaled, b).p());
    }

    private static double[] reversed(double[] sorted) {
        double[] r = new double[sorted.length];
        for (int i = 0; i < sorted.length; i++) {
            r[i] = sorted[sorted.length - 1 - i];
        }
        return r;
    }
}
