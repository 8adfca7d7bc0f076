package io.envbench.measure.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.apache.jorphan.math.StatCalculatorLong;
import org.junit.jupiter.api.Test;

/** Our streaming figures against the very classes JMeter computes its reports with. */
class ElapsedDistributionTest {
    private static final double[] PERCENTILES = {1, 10, 25, 50, 75, 90, 95, 99, 99.9, 100};

    @Test
    void percentilesEqualCommonsMathLegacyAndAggregateReport() {
        Random rnd = new Random(7);
        for (int n : new int[] {1, 2, 3, 10, 99, 1000, 12345}) {
            ElapsedDistribution d = new ElapsedDistribution();
            StatCalculatorLong jmeter = new StatCalculatorLong();
            double[] values = new double[n];
            for (int i = 0; i < n; i++) {
                long v = rnd.nextInt(4) == 0 ? 5 : (long) Math.abs(rnd.nextGaussian() * 40); // many ties
                values[i] = v;
                d.add(v);
                jmeter.addValue(v);
            }
            Percentile legacy = new Percentile().withEstimationType(Percentile.EstimationType.LEGACY);
            legacy.setData(values);
            for (double p : PERCENTILES) {
                assertEquals(legacy.evaluate(p), d.percentileLegacy(p), 1e-9, "n=" + n + " p=" + p);
            }
            for (double f : new double[] {0.5, 0.9, 0.95, 0.99}) {
                assertEquals(jmeter.getPercentPoint(f).longValue(), d.nearestRank(f), "n=" + n + " f=" + f);
            }
            assertEquals(jmeter.getMean(), d.mean(), 1e-9);
            assertEquals(jmeter.getMin().longValue(), d.min());
            assertEquals(jmeter.getMax().longValue(), d.max());
        }
    }

    @Test
    void mergingEqualsAddingEverythingToOne() {
        ElapsedDistribution a = new ElapsedDistribution();
        ElapsedDistribution b = new ElapsedDistribution();
        ElapsedDistribution all = new ElapsedDistribution();
        for (long v = 0; v < 500; v++) {
            (v % 3 == 0 ? a : b).add(v % 37);
            all.add(v % 37);
        }
        a.addAll(b);
        assertEquals(all.count(), a.count());
        assertEquals(all.percentileLegacy(90), a.percentileLegacy(90));
        assertEquals(all.nearestRank(0.9), a.nearestRank(0.9));
    }
}
