package io.envbench.measure.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The ratio of two sets of runs and its distribution-free interval, against the Mann-Whitney tables. */
class RatioOfRunsTest {
    @Test
    void theNullDistributionOfUMatchesTheTables() {
        // n = m = 6: P(U <= 5) = 19/924 (0.0206), the two-sided 5% critical value 5; n = m = 4: P(U <= 0) = 1/70
        double[] six = RatioOfRuns.lowerTail(6, 6);
        assertEquals(37, six.length);
        assertEquals(19.0 / 924, six[5], 1e-12);
        assertEquals(1.0, six[36], 1e-12);
        assertEquals(1.0 / 70, RatioOfRuns.lowerTail(4, 4)[0], 1e-12);
    }

    @Test
    void sixRunsASideGiveTheSixthRatioFromEachEnd() {
        RunStatistics a = RunStatistics.of(List.of(1.01, 1.02, 1.03, 1.04, 1.05, 1.06));
        RunStatistics b = RunStatistics.of(List.of(1.00, 1.00, 1.00, 1.00, 1.00, 1.00));
        RatioOfRuns r = RatioOfRuns.of(a, b);
        assertEquals(1.035, r.ratio(), 1e-12);
        assertTrue(r.available());
        // 36 ratios: each a value six times; the 6th is 1.01, the 31st 1.06
        assertEquals(1.01, r.low(), 1e-12);
        assertEquals(1.06, r.high(), 1e-12);
        assertEquals(1 - 2 * 19.0 / 924, r.confidence(), 1e-12);
        assertTrue(r.low() <= r.ratio() && r.ratio() <= r.high());
    }

    @Test
    void tooFewRunsGiveNoInterval() {
        RatioOfRuns r = RatioOfRuns.of(RunStatistics.of(List.of(2.0, 2.2)), RunStatistics.of(List.of(1.0, 1.0)));
        assertEquals(2.1, r.ratio(), 1e-12);
        assertFalse(r.available(), "2 runs a side: the smallest U has probability 1/6, above 2.5%");
        assertTrue(Double.isNaN(r.low()));
        assertTrue(Double.isNaN(RatioOfRuns.of(RunStatistics.of(List.of()), RunStatistics.of(List.of(1.0)))
                .ratio()));
    }
}
