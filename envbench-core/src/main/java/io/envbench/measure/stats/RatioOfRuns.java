package io.envbench.measure.stats;

import java.util.Arrays;

import net.jcip.annotations.Immutable;

/**
 * How much one figure of an environment differs from a reference's, each measured once per run: the ratio of the
 * medians of runs (the "+1.4%" of a study that compares two times), and a distribution-free confidence interval of
 * the ratio (Bauer 1972, the Hodges-Lehmann interval on the log scale): the k-th smallest and k-th largest of the
 * n x m ratios of a run of one to a run of the other, where k - 1 is the largest U whose exact Mann-Whitney null
 * probability P(U &lt;= k - 1) stays within (1 - confidence) / 2. Assumes no ties between the two sides; 6 runs a side
 * give k = 6 of 36 ratios (95.9%). Immutable.
 *
 * @param ratio      median(a) / median(b); NaN without runs or with a median of b of 0
 * @param low        the interval's lower end, NaN when {@code available} is false
 * @param high       the interval's upper end
 * @param confidence what the interval actually covers (at least the one asked for); NaN when unavailable
 * @param available  false when the runs are too few for any interval at that confidence (fewer than 4 a side at 95%)
 */
@Immutable
public record RatioOfRuns(double ratio, double low, double high, double confidence, boolean available) {
    /** a's runs against b's at {@link RunStatistics#CONFIDENCE}. */
    public static RatioOfRuns of(RunStatistics a, RunStatistics b) {
        return of(a, b, RunStatistics.CONFIDENCE);
    }

    public static RatioOfRuns of(RunStatistics a, RunStatistics b, double confidence) {
        double ratio = a.runs() == 0 || b.runs() == 0 || b.median() == 0 ? Double.NaN : a.median() / b.median();
        double[] x = a.values();
        double[] y = b.values();
        if (x.length == 0
                || y.length == 0
                || Arrays.stream(y).anyMatch(v -> v <= 0)
                || Arrays.stream(x).anyMatch(v -> v < 0)) {
            return new RatioOfRuns(ratio, Double.NaN, Double.NaN, Double.NaN, false);
        }
        double[] ratios = new double[x.length * y.length];
        int i = 0;
        for (double xi : x) {
            for (double yj : y) {
                ratios[i++] = xi / yj;
            }
        }
        Arrays.sort(ratios);
        double[] lowerTail = lowerTail(x.length, y.length);
        double tail = (1 - confidence) / 2;
        int k = 0; // P(U <= k - 1) <= tail: k - 1 is the last U inside the tail
        while (k < lowerTail.length && lowerTail[k] <= tail) {
            k++;
        }
        if (k == 0) {
            return new RatioOfRuns(ratio, Double.NaN, Double.NaN, Double.NaN, false);
        }
        return new RatioOfRuns(ratio, ratios[k - 1], ratios[ratios.length - k], 1 - 2 * lowerTail[k - 1], true);
    }

    /** P(U &lt;= u) under the null, u = 0 .. n x m, for samples of n and m without ties. */
    static double[] lowerTail(int n, int m) {
        // f[a][b][u]: orderings of a values of one side and b of the other with U = u (pairs where the first is
        // larger):
        // the largest value is the first side's (it beats all b: U - b) or the other's, f(a, b, u) = f(a-1, b, u-b) +
        // f(a, b-1, u)
        double[][][] f = new double[n + 1][m + 1][];
        for (int a = 0; a <= n; a++) {
            for (int b = 0; b <= m; b++) {
                double[] row = new double[a * b + 1];
                if (a == 0 || b == 0) {
                    row[0] = 1;
                } else {
                    double[] withoutA = f[a - 1][b];
                    double[] withoutB = f[a][b - 1];
                    for (int u = 0; u <= a * b; u++) {
                        double v = 0;
                        if (u - b >= 0 && u - b < withoutA.length) {
                            v += withoutA[u - b];
                        }
                        if (u < withoutB.length) {
                            v += withoutB[u];
                        }
                        row[u] = v;
                    }
                }
                f[a][b] = row;
            }
        }
        double[] dist = f[n][m];
        double total = Arrays.stream(dist).sum();
        double[] cumulative = new double[dist.length];
        double sum = 0;
        for (int u = 0; u < dist.length; u++) {
            sum += dist[u];
            cumulative[u] = sum / total;
        }
        return cumulative;
    }
}
