package io.envbench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

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
    }
}
