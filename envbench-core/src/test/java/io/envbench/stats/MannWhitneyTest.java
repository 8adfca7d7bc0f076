package io.envbench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.apache.commons.math3.stat.inference.MannWhitneyUTest;
import org.junit.jupiter.api.Test;

class MannWhitneyTest {
    @Test
    void withoutTiesItEqualsCommonsMath() {
        Random r = new Random(11);
        double[] x = new double[40];
        double[] y = new double[55];
        ElapsedDistribution a = new ElapsedDistribution();
        ElapsedDistribution b = new ElapsedDistribution();
        java.util.Set<Long> used = new java.util.HashSet<>();
        for (int i = 0; i < x.length; i++) {
            long v;
            do { v = r.nextInt(100_000); } while (!used.add(v));
            x[i] = v;
            a.add(v);
        }
        for (int i = 0; i < y.length; i++) {
            long v;
            do { v = r.nextInt(100_000) + 8_000; } while (!used.add(v));
            y[i] = v;
            b.add(v);
        }
        assertEquals(new MannWhitneyUTest().mannWhitneyUTest(x, y), MannWhitney.test(a, b).p(), 1e-9);
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
        assertTrue(falseAlarms >= 3 && falseAlarms <= 30, "false alarms " + falseAlarms + " of " + trials + " (expected ~15)");
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
