package io.envbench.measure.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import net.jcip.annotations.ThreadSafe;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.util.CombinatoricsUtils;

/**
 * Two-sided Mann-Whitney U test, in two uses:
 * <ul>
 * <li>{@link #test(double[], double[])}: the verdict. One value per run (repetition) on each side, the only
 * independent observations a benchmark has. Exact when n1 + n2 &lt;= {@link #EXACT_LIMIT} (with ties too, conditional
 * on the tie structure, as benchstat does), else the tie-corrected normal approximation.</li>
 * <li>{@link #test(ElapsedDistribution, ElapsedDistribution)}: a description of two pooled sample distributions.
 * Samples of one run are autocorrelated, not independent, so its p says nothing about whether another run would
 * agree: never a verdict.</li>
 * </ul>
 * The normal approximation has no continuity correction, as commons-math's {@code MannWhitneyUTest} (which it equals
 * without ties); benchstat's has one. Stateless; thread-safe.
 */
@ThreadSafe
public final class MannWhitney {
    /**
     * Largest n1 + n2 for which the exact null distribution is computed (at 50, about 6 M additions; counts stay below
     * 2^53, so they are exact in a double). Above it the normal approximation is good.
     */
    public static final int EXACT_LIMIT = 50;

    /** How the p-value was computed. */
    public enum Method {
        /** Exact null distribution of U, no ties. */
        EXACT,
        /** Exact null distribution of U given the observed ties (mid-ranks), by enumeration over tie groups. */
        EXACT_WITH_TIES,
        /** Normal approximation with tie correction, without continuity correction. */
        NORMAL_APPROXIMATION
    }

    /**
     * @param u U of the first sample: pairs (a, b) with a &gt; b, plus half the pairs with a == b
     * @param z standard score of min(U1, U2) in the normal approximation (also given with exact p-values)
     * @param p the two-sided p-value
     */
    public record Result(double u, double z, double p, Method method) {
        public boolean significant(double alpha) {
            return p < alpha;
        }
    }

    private MannWhitney() {}

    /**
     * The verdict test on one value per run. Exact two-sided p-value (twice the smaller tail of U's null distribution,
     * at most 1) when n1 + n2 &lt;= {@link #EXACT_LIMIT}; else the normal approximation. Values all equal: p = 1.
     *
     * @throws IllegalArgumentException if a side is empty or a value is NaN
     */
    public static Result test(double[] a, double[] b) {
        requireValues("a", a);
        requireValues("b", b);
        double[] x = a.clone();
        double[] y = b.clone();
        Arrays.sort(x);
        Arrays.sort(y);
        List<long[]> groups = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < x.length || j < y.length) {
            double v = j >= y.length || (i < x.length && x[i] <= y[j]) ? x[i] : y[j];
            long[] g = new long[2];
            for (; i < x.length && x[i] == v; i++) {
                g[0]++;
            }
            for (; j < y.length && y[j] == v; j++) {
                g[1]++;
            }
            groups.add(g);
        }
        Ranks r = Ranks.of(groups, x.length, y.length);
        if (x.length + y.length > EXACT_LIMIT) {
            return r.normalApproximation();
        }
        return r.exact(groups);
    }

    /**
     * Describes two pooled sample distributions (value -> count): streams, cost grows with distinct values. Normal
     * approximation with tie correction; without ties it equals commons-math's {@code MannWhitneyUTest}. Not a verdict:
     * samples of one run are not independent. Empty side: all NaN.
     */
    public static Result test(ElapsedDistribution a, ElapsedDistribution b) {
        if (a.count() == 0 || b.count() == 0) {
            return new Result(Double.NaN, Double.NaN, Double.NaN, Method.NORMAL_APPROXIMATION);
        }
        Map<Long, long[]> merged = new TreeMap<>();
        a.forEach((v, c) -> merged.computeIfAbsent(v, k -> new long[2])[0] += c);
        b.forEach((v, c) -> merged.computeIfAbsent(v, k -> new long[2])[1] += c);
        return Ranks.of(new ArrayList<>(merged.values()), a.count(), b.count()).normalApproximation();
    }

    /**
     * The smallest two-sided p-value the exact test can give for n1 vs n2 values (all of one side below all of the
     * other, no ties): 2 / C(n1 + n2, n1), at most 1. At or above alpha, no data can make a difference significant.
     */
    public static double smallestPossibleP(int n1, int n2) {
        if (n1 <= 0 || n2 <= 0) {
            return 1.0;
        }
        return Math.min(1.0, 2.0 / CombinatoricsUtils.binomialCoefficientDouble(n1 + n2, n1));
    }

    /** The fewest values a side, equal on both, for which some outcome reaches p &lt; alpha (4 at alpha 0.05). */
    public static int runsNeededEach(double alpha) {
        int n = 1;
        while (smallestPossibleP(n, n) >= alpha) {
            n++;
        }
        return n;
    }

    private static void requireValues(String side, double[] values) {
        if (values == null || values.length == 0) {
            throw new IllegalArgumentException(side + ": no values; give at least one value per side");
        }
        for (int k = 0; k < values.length; k++) {
            if (Double.isNaN(values[k])) {
                throw new IllegalArgumentException(side + "[" + k + "] is NaN; leave out runs without a value");
            }
        }
    }

    /**
     * Mid-ranks of the merged samples. groups: each distinct value in ascending order, with its count in the first
     * and in the second sample. Ranks are kept doubled, so mid-ranks of ties stay whole numbers.
     */
    private record Ranks(long n1, long n2, long doubledU1, double tieTerm, boolean ties) {
        static Ranks of(List<long[]> groups, long n1, long n2) {
            long doubledRankSum = 0;
            double tieTerm = 0;
            boolean ties = false;
            long below = 0;
            for (long[] g : groups) {
                long t = g[0] + g[1];
                doubledRankSum += g[0] * (2 * below + t + 1);
                tieTerm += (double) t * t * t - t;
                ties |= t > 1;
                below += t;
            }
            return new Ranks(n1, n2, doubledRankSum - n1 * (n1 + 1), tieTerm, ties);
        }

        double u1() {
            return doubledU1 / 2.0;
        }

        /** Standard score of min(U1, U2), tie-corrected; NaN when every value is equal. */
        double z() {
            double n = n1 + n2;
            double variance = n1 * (double) n2 / 12.0 * ((n + 1) - tieTerm / (n * (n - 1)));
            if (!(variance > 0)) {
                return Double.NaN;
            }
            // commons-math uses min(U1, U2); the two-sided p-value is the same for either
            double u2 = (double) n1 * n2 - u1();
            return (Math.min(u1(), u2) - n1 * (double) n2 / 2.0) / Math.sqrt(variance);
        }

        Result normalApproximation() {
            double z = z();
            if (Double.isNaN(z)) {
                return new Result(u1(), 0, 1.0, Method.NORMAL_APPROXIMATION); // all values equal
            }
            double p = 2 * new NormalDistribution(null, 0, 1).cumulativeProbability(-Math.abs(z));
            return new Result(u1(), z, Math.min(1.0, p), Method.NORMAL_APPROXIMATION);
        }

        /**
         * Counts the ways to pick the first sample's n1 members out of the tie groups (k of a group of t in C(t, k)
         * ways) by their doubled rank sum: the permutation distribution of U given the ties. Without ties it is the
         * classical exact distribution (Mann and Whitney 1947); with ties, the one Klotz (1966) and benchstat compute.
         */
        Result exact(List<long[]> groups) {
            int first = (int) n1;
            int n = (int) (n1 + n2);
            int maxDoubledRankSum = n * (n + 1);
            double[][] ways = new double[first + 1][maxDoubledRankSum + 1];
            ways[0][0] = 1;
            int below = 0;
            int picked = 0;
            for (long[] g : groups) {
                int t = (int) (g[0] + g[1]);
                int doubledMidRank = 2 * below + t + 1;
                double[][] next = new double[first + 1][maxDoubledRankSum + 1];
                for (int j = 0; j <= Math.min(picked, first); j++) {
                    for (int s = 0; s <= maxDoubledRankSum; s++) {
                        if (ways[j][s] == 0) {
                            continue;
                        }
                        for (int k = 0; k <= t && j + k <= first; k++) {
                            next[j + k][s + k * doubledMidRank] +=
                                    ways[j][s] * CombinatoricsUtils.binomialCoefficientDouble(t, k);
                        }
                    }
                }
                ways = next;
                below += t;
                picked += t;
            }
            double total = CombinatoricsUtils.binomialCoefficientDouble(n, first);
            long observed = doubledU1 + n1 * (n1 + 1); // back to the doubled rank sum
            double atOrBelow = 0;
            double atOrAbove = 0;
            for (int s = 0; s <= maxDoubledRankSum; s++) {
                if (s <= observed) {
                    atOrBelow += ways[first][s];
                }
                if (s >= observed) {
                    atOrAbove += ways[first][s];
                }
            }
            double p = Math.min(1.0, 2 * Math.min(atOrBelow, atOrAbove) / total);
            double z = z();
            return new Result(u1(), Double.isNaN(z) ? 0 : z, p, ties ? Method.EXACT_WITH_TIES : Method.EXACT);
        }
    }
}
