package io.envbench.measure.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class RunStatisticsTest {
    @Test
    void confidenceIntervalUsesStudentsT() {
        RunStatistics r = RunStatistics.of(List.of(100.0, 102.0, 98.0, 101.0, 99.0));
        assertEquals(100.0, r.mean(), 1e-12);
        double sd = Math.sqrt(2.5);
        assertEquals(sd, r.stdDev(), 1e-12);
        assertEquals(2.776445105 * sd / Math.sqrt(5), r.ciHalfWidth95(), 1e-6); // t(0.975, 4)
        assertEquals(sd / 100.0, r.cv(), 1e-12);
        assertFalse(r.tooVariable());
    }

    @Test
    void highVariationWarnsAndAsksForMoreRuns() {
        RunStatistics r = RunStatistics.of(List.of(100.0, 120.0, 85.0));
        assertTrue(r.tooVariable());
        long n = r.runsNeeded();
        assertTrue(n > 3, "more runs than the 3 made: " + n);
        RunStatistics calmer = RunStatistics.of(List.of(100.0, 104.0, 97.0));
        assertTrue(calmer.runsNeeded() < n);
    }

    @Test
    void oneRunHasNoInterval() {
        RunStatistics r = RunStatistics.of(List.of(5.0));
        assertTrue(Double.isNaN(r.ciHalfWidth95()));
        assertFalse(r.tooVariable());
        assertEquals(5.0, r.median());
        assertFalse(r.medianCi95().available());
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(3.0, RunStatistics.of(List.of(9.0, 1.0, 3.0)).median());
        assertEquals(4.0, RunStatistics.of(List.of(9.0, 1.0, 3.0, 5.0)).median());
        assertTrue(Double.isNaN(RunStatistics.of(List.of()).median()));
    }

    /**
     * The order statistics and actual confidence benchstat gives (go-moremath stats.QuantileCI(n, 0.5, 0.95), run for
     * n = 5, 6, 8, 10: orders 0..5 (none), 1..6, 1..7, 2..9; confidence 31/32, 62/64, 246/256, 1002/1024).
     */
    @Test
    void medianIntervalFromOrderStatisticsAsBenchstat() {
        assertEquals(6, RunStatistics.runsNeededForMedianInterval());
        RunStatistics five = RunStatistics.of(List.of(5.0, 1.0, 4.0, 2.0, 3.0));
        RunStatistics.MedianInterval none = five.medianCi95();
        assertFalse(none.available());
        assertTrue(Double.isNaN(none.low()) && Double.isNaN(none.high()) && Double.isNaN(none.confidence()));
        assertInterval(6, 1, 6, 62.0 / 64);
        assertInterval(8, 1, 7, 246.0 / 256);
        assertInterval(10, 2, 9, 1002.0 / 1024);
    }

    /** Values 10, 20, ..., 10 n shuffled: the interval is [10 low, 10 high] with the given confidence. */
    private static void assertInterval(int n, int low, int high, double confidence) {
        List<Double> values = new ArrayList<>();
        for (int i = n; i >= 1; i--) {
            values.add(10.0 * i);
        }
        Collections.shuffle(values, new Random(n));
        RunStatistics.MedianInterval ci = RunStatistics.of(values).medianCi95();
        assertTrue(ci.available(), "n=" + n);
        assertEquals(10.0 * low, ci.low(), "n=" + n);
        assertEquals(10.0 * high, ci.high(), "n=" + n);
        assertEquals(confidence, ci.confidence(), 1e-12, "n=" + n);
        assertTrue(ci.confidence() >= RunStatistics.CONFIDENCE);
    }
}
