package io.envbench.measure.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import org.apache.commons.math3.stat.inference.MannWhitneyUTest;
import org.junit.jupiter.api.Test;

class MannWhitneyTest {
    // --- the verdict test: one value per run ---

    /** The smallest two-sided p of the exact test is 2 / C(2n, n): 2/70 for 4 vs 4, 2/20 for 3 vs 3 (never below 0.05). */
    @Test
    void completeSeparationGivesTheSmallestExactP() {
        MannWhitney.Result four = MannWhitney.test(new double[] {1, 2, 3, 4}, new double[] {5, 6, 7, 8});
        assertEquals(2.0 / 70, four.p(), 1e-12);
        assertEquals(0, four.u());
        assertEquals(MannWhitney.Method.EXACT, four.method());
        assertTrue(four.significant(0.05));
        MannWhitney.Result three = MannWhitney.test(new double[] {7, 8, 9}, new double[] {1, 2, 3});
        assertEquals(0.1, three.p(), 1e-12);
        assertEquals(9, three.u());
        assertEquals(2.0 / 70, MannWhitney.smallestPossibleP(4, 4), 1e-15);
        assertEquals(0.1, MannWhitney.smallestPossibleP(3, 3), 1e-15);
        assertEquals(2.0 / 56, MannWhitney.smallestPossibleP(3, 5), 1e-15);
        assertEquals(1.0, MannWhitney.smallestPossibleP(1, 1));
        assertEquals(4, MannWhitney.runsNeededEach(0.05));
        assertEquals(5, MannWhitney.runsNeededEach(0.01));
    }

    /**
     * Critical values of U at alpha 0.05, two-sided, as in the standard published tables of the Mann-Whitney U test:
     * the exact p at the critical U is below 0.05, one more is not.
     */
    @Test
    void exactPValuesAgreeWithThePublishedCriticalValues() {
        int[][] n1n2Critical = {
            {5, 5, 2}, {6, 6, 5}, {8, 8, 13}, {10, 10, 23}, {4, 8, 4}, {5, 10, 8}, {7, 9, 12}, {20, 20, 127}
        };
        for (int[] c : n1n2Critical) {
            MannWhitney.Result atCritical = MannWhitney.test(withU(c[0], c[1], c[2]), counting(c[1]));
            MannWhitney.Result above = MannWhitney.test(withU(c[0], c[1], c[2] + 1), counting(c[1]));
            String what = c[0] + " vs " + c[1] + ": ";
            assertEquals(c[2], atCritical.u(), what + "U");
            assertEquals(MannWhitney.Method.EXACT, atCritical.method(), what);
            assertTrue(atCritical.p() < 0.05, what + "p at U=" + c[2] + " is " + atCritical.p());
            assertTrue(above.p() >= 0.05, what + "p at U=" + (c[2] + 1) + " is " + above.p());
            // U and n1 n2 - U are equally extreme
            assertEquals(
                    atCritical.p(),
                    MannWhitney.test(counting(c[1]), withU(c[0], c[1], c[2])).p(),
                    1e-12,
                    what + "swapped");
        }
    }

    /**
     * p-values from benchstat's own implementation, computed by running go-moremath's stats.MannWhitneyUTest
     * (LocationDiffers; aclements/go-moremath c8bbc67), with and without ties; where ties occur their structure is symmetric, so benchstat's "twice the CDF at min(U1, U2)" and our
     * "twice the smaller tail" are the same number.
     */
    @Test
    void exactPValuesEqualBenchstats() {
        assertEquals(
                0.057142857142857141,
                MannWhitney.test(new double[] {1, 2, 2, 3}, new double[] {3, 4, 4, 5})
                        .p(),
                1e-12);
        MannWhitney.Result ties = MannWhitney.test(new double[] {1, 1, 2, 4, 5, 5}, new double[] {2, 3, 3, 4, 6, 6});
        assertEquals(12, ties.u());
        assertEquals(0.43073593073593075, ties.p(), 1e-12);
        assertEquals(MannWhitney.Method.EXACT_WITH_TIES, ties.method());
        MannWhitney.Result half =
                MannWhitney.test(new double[] {10, 10, 11, 12, 13}, new double[] {11, 12, 13, 14, 14});
        assertEquals(4.5, half.u());
        assertEquals(0.14285714285714285, half.p(), 1e-12);
        assertEquals(
                0.69913419913419927,
                MannWhitney.test(new double[] {1, 3, 5, 7, 9, 11}, new double[] {2, 4, 6, 8, 10, 12})
                        .p(),
                1e-12);
        assertEquals(
                0.0021645021645021649,
                MannWhitney.test(
                                new double[] {101.5, 99.2, 100.1, 98.7, 102.3, 100.9},
                                new double[] {110.2, 111.9, 109.5, 112.4, 110.8, 108.9})
                        .p(),
                1e-12);
    }

    /** With ties, against brute force: every way of choosing the first sample's positions, U from mid-ranks. */
    @Test
    void exactPValuesWithTiesEqualFullEnumeration() {
        Random r = new Random(17);
        for (int trial = 0; trial < 200; trial++) {
            int n1 = 1 + r.nextInt(7);
            int n2 = 1 + r.nextInt(7);
            double[] a = new double[n1];
            double[] b = new double[n2];
            for (int i = 0; i < n1; i++) {
                a[i] = r.nextInt(5);
            }
            for (int i = 0; i < n2; i++) {
                b[i] = r.nextInt(5) + r.nextInt(2);
            }
            assertEquals(
                    enumeratedP(a, b),
                    MannWhitney.test(a, b).p(),
                    1e-12,
                    Arrays.toString(a) + " vs " + Arrays.toString(b));
        }
    }

    /** Above the exact limit: the normal approximation, equal to commons-math (no continuity correction) without ties. */
    @Test
    void largeSamplesWithoutTiesEqualCommonsMath() {
        Random r = new Random(23);
        for (int[] n : new int[][] {{30, 30}, {30, 45}, {41, 60}, {60, 60}, {25, 26}}) {
            Set<Double> used = new HashSet<>();
            double[] a = distinct(r, n[0], 0, used);
            double[] b = distinct(r, n[1], r.nextDouble() * 0.4, used);
            MannWhitney.Result ours = MannWhitney.test(a, b);
            assertEquals(MannWhitney.Method.NORMAL_APPROXIMATION, ours.method(), n[0] + "+" + n[1]);
            assertEquals(new MannWhitneyUTest().mannWhitneyUTest(a, b), ours.p(), 1e-9, n[0] + " vs " + n[1]);
        }
    }

    @Test
    void equalRunsAreNotSignificantAndBadInputIsNamed() {
        MannWhitney.Result same = MannWhitney.test(new double[] {1, 1, 1, 1, 1}, new double[] {1, 1, 1, 1, 1});
        assertEquals(1.0, same.p());
        assertEquals(MannWhitney.Method.EXACT_WITH_TIES, same.method());
        IllegalArgumentException nan = assertThrows(
                IllegalArgumentException.class,
                () -> MannWhitney.test(new double[] {1, 2}, new double[] {3, Double.NaN}));
        assertTrue(nan.getMessage().startsWith("b[1] is NaN"), nan.getMessage());
        IllegalArgumentException empty =
                assertThrows(IllegalArgumentException.class, () -> MannWhitney.test(new double[0], new double[] {3}));
        assertTrue(empty.getMessage().startsWith("a: no values"), empty.getMessage());
    }

    /** n1 values, each a little below one of the values 0..n2-1 of {@link #counting}, with exactly u pairs a > b. */
    private static double[] withU(int n1, int n2, int u) {
        double[] a = new double[n1];
        int left = u;
        for (int i = n1 - 1; i >= 0; i--) {
            int above = Math.min(n2, left); // b values below a[i]
            left -= above;
            a[i] = above - 0.5 + i * 1e-3; // distinct, no ties with b
        }
        assertEquals(0, left, "u=" + u + " fits " + n1 + " x " + n2);
        return a;
    }

    private static double[] counting(int n) {
        double[] b = new double[n];
        for (int i = 0; i < n; i++) {
            b[i] = i;
        }
        return b;
    }

    private static double[] distinct(Random r, int n, double shift, Set<Double> used) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            do {
                v[i] = r.nextDouble() + shift;
            } while (!used.add(v[i]));
        }
        return v;
    }

    /** Two-sided p by enumerating all C(n1 + n2, n1) splits of the pooled values (twice the smaller tail, at most 1). */
    private static double enumeratedP(double[] a, double[] b) {
        double[] all = new double[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        double observed = u(a, b);
        long below = 0;
        long above = 0;
        long total = 0;
        for (int mask = 0; mask < 1 << all.length; mask++) {
            if (Integer.bitCount(mask) != a.length) {
                continue;
            }
            double[] x = new double[a.length];
            double[] y = new double[b.length];
            int i = 0;
            int j = 0;
            for (int k = 0; k < all.length; k++) {
                if ((mask & (1 << k)) != 0) {
                    x[i++] = all[k];
                } else {
                    y[j++] = all[k];
                }
            }
            double u = u(x, y);
            total++;
            below += u <= observed ? 1 : 0;
            above += u >= observed ? 1 : 0;
        }
        return Math.min(1.0, 2.0 * Math.min(below, above) / total);
    }

    /** U by its definition: pairs with x > y, plus half the tied pairs. */
    private static double u(double[] x, double[] y) {
        double u = 0;
        for (double xi : x) {
            for (double yj : y) {
                u += xi > yj ? 1 : xi == yj ? 0.5 : 0;
            }
        }
        return u;
    }

    // --- the description of pooled sample distributions ---

    @Test
    void withoutTiesItEqualsCommonsMath() {
        Random r = new Random(11);
        double[] x = new double[40];
        double[] y = new double[55];
        ElapsedDistribution a = new ElapsedDistribution();
        ElapsedDistribution b = new ElapsedDistribution();
        Set<Long> used = new HashSet<>();
        for (int i = 0; i < x.length; i++) {
            long v;
            do {
                v = r.nextInt(100_000);
            } while (!used.add(v));
            x[i] = v;
            a.add(v);
        }
        for (int i = 0; i < y.length; i++) {
            long v;
            do {
                v = r.nextInt(100_000) + 8_000;
            } while (!used.add(v));
            y[i] = v;
            b.add(v);
        }
        assertEquals(
                new MannWhitneyUTest().mannWhitneyUTest(x, y),
                MannWhitney.test(a, b).p(),
                1e-9);
    }

    /** Known distributions: a real shift is found; identical ones are rejected at about the 5% rate. */
    @Test
    void findsRealDifferencesAndRarelyInventsThem() {
        Random r = new Random(5);
        int trials = 300;
        int falseAlarms = 0;
        int found = 0;
        for (int t = 0; t < trials; t++) {
            ElapsedDistribution same1 = sample(r, 20, 300);
            ElapsedDistribution same2 = sample(r, 20, 300);
            ElapsedDistribution shifted = sample(r, 23, 300);
            if (MannWhitney.test(same1, same2).significant(0.05)) {
                falseAlarms++;
            }
            if (MannWhitney.test(same1, shifted).significant(0.05)) {
                found++;
            }
        }
        assertTrue(
                falseAlarms >= 3 && falseAlarms <= 30,
                "false alarms " + falseAlarms + " of " + trials + " (expected ~15)");
        assertTrue(found > 0.95 * trials, "found " + found + " of " + trials);
    }

    @Test
    void allEqualValuesAreNotSignificant() {
        ElapsedDistribution a = new ElapsedDistribution();
        ElapsedDistribution b = new ElapsedDistribution();
        for (int i = 0; i < 100; i++) {
            a.add(1);
            b.add(1);
        }
        assertEquals(1.0, MannWhitney.test(a, b).p());
    }

    /** Whole-millisecond values: many ties, as in real JTLs. */
    private static ElapsedDistribution sample(Random r, double meanMs, int n) {
        ElapsedDistribution d = new ElapsedDistribution();
        for (int i = 0; i < n; i++) {
            d.add(Math.max(0, Math.round(meanMs + 6 * r.nextGaussian())));
        }
        return d;
    }
}
