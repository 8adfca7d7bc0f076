package io.envbench.measure.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.envbench.measure.results.Sample;
import org.junit.jupiter.api.Test;

/**
 * Latency from the intended start, beside JMeter's from the actual start: one stalled sample holds up the arrivals
 * behind it, which JMeter's elapsed times do not show and the corrected ones do.
 */
class SampleStatisticsTest {
    @Test
    void aStallShowsInTheLatencyFromTheIntendedStartOnly() {
        SampleStatistics s = new SampleStatistics();
        // arrivals every 10 ms; the first sample takes 100 ms on the only thread, so the nine after it start late
        s.add(new Sample("bare", "GET", 0, 100, true, 0, 0, 0));
        for (int k = 1; k < 10; k++) {
            s.add(new Sample("bare", "GET", 99 + k, 1, true, 0, 0, 10L * k)); // meant for 10 k ms, started at 99 + k
        }
        assertTrue(s.scheduled());
        assertEquals(1, s.percentileMs(50), "JMeter's median: 1 ms");
        // from the intended start: 100, then 1 + 99 + k - 10 k = 91, 82, ..., 19; LEGACY median of ten: (55 + 64) / 2
        assertEquals(59.5, s.percentileFromIntendedMs(50), 1e-9);
        assertTrue(s.percentileFromIntendedMs(80) > 10 * s.percentileMs(80), "the stall is seen beyond its own sample");
    }

    @Test
    void withoutASchedulePercentilesFromTheIntendedStartAreNotMadeUp() {
        SampleStatistics s = new SampleStatistics();
        s.add(new Sample("bare", "GET", 0, 5, true, 0, 0));
        s.add(new Sample("bare", "GET", 10, 5, true, 0, 0, 10));
        assertFalse(s.scheduled(), "one sample without an intended start");
        assertTrue(Double.isNaN(s.percentileFromIntendedMs(90)));
    }
}
