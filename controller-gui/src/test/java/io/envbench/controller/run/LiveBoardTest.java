package io.envbench.controller.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.envbench.results.Sample;
import io.envbench.runner.PlannedRun;

class LiveBoardTest {
    private static final PlannedRun BARE_1 = new PlannedRun(1, "bare", 1);
    private static final PlannedRun BARE_2 = new PlannedRun(2, "bare", 2);

    /** {@code perSecond} samples in each of {@code seconds} seconds from t0, elapsed 1..perSecond ms. */
    private static List<Sample> load(long t0Ms, int seconds, int perSecond, boolean success) {
        List<Sample> s = new ArrayList<>();
        for (int sec = 0; sec < seconds; sec++) {
            for (int i = 1; i <= perSecond; i++) {
                long start = t0Ms + sec * 1000L + i * (900L / perSecond);
                s.add(new Sample("bare", "GET", start, i, success, 100, 10));
            }
        }
        return s;
    }

    @Test
    void theWindowGivesThroughputAndTheAggregateReports90PercentLine() {
        LiveBoard b = new LiveBoard(List.of("bare", "docker"), 4, Duration.ZERO);
        b.runStarting(BARE_1, 1, 4, Duration.ofSeconds(60));
        b.samples(BARE_1, load(1_000_000, 8, 10, true));
        LiveBoard.EnvironmentFigures f = b.snapshot().environments().get(0);
        assertEquals(10.0, f.throughputPerSec(), 1e-9, "10 samples in each complete second");
        assertEquals(9.0, f.p90Ms(), "nearest rank of 1..10 ms, five times: the 45th of 50");
        assertEquals(0.0, f.errorPct());
        assertTrue(Double.isNaN(b.snapshot().environments().get(1).throughputPerSec()), "docker has not run");
        assertEquals(7, b.snapshot().throughputSeries().get("bare").size(), "the newest second is left out while it fills");
    }

    @Test
    void aNewRunKeepsThePreviousFiguresUntilItHasItsOwn() {
        LiveBoard b = new LiveBoard(List.of("bare"), 4, Duration.ZERO);
        b.runStarting(BARE_1, 1, 4, Duration.ofSeconds(60));
        b.samples(BARE_1, load(1_000_000, 8, 20, false));
        b.runStarting(BARE_2, 2, 4, Duration.ofSeconds(30));
        LiveBoard.EnvironmentFigures f = b.snapshot().environments().get(0);
        assertEquals(20.0, f.throughputPerSec(), 1e-9);
        assertEquals(100.0, f.errorPct());
        assertEquals(0, b.snapshot().throughputSeries().get("bare").size(), "the chart starts the new run afresh");
        b.samples(BARE_2, load(2_000_000, 4, 5, true));
        assertEquals(5.0, b.snapshot().environments().get(0).throughputPerSec(), 1e-9);
    }

    @Test
    void theWarmUpAndSamplesOfAnotherRunAreLeftOut() {
        LiveBoard b = new LiveBoard(List.of("bare"), 4, Duration.ofSeconds(3));
        b.runStarting(BARE_1, 1, 4, Duration.ofSeconds(60));
        b.samples(BARE_1, load(1_000_000, 3, 10, true));
        assertTrue(Double.isNaN(b.snapshot().environments().get(0).throughputPerSec()), "still warming up");
        b.samples(BARE_2, load(1_003_000, 5, 50, true));
        assertTrue(Double.isNaN(b.snapshot().environments().get(0).throughputPerSec()), "not the running run's samples");
        b.samples(BARE_1, load(1_003_000, 5, 20, true));
        assertEquals(20.0, b.snapshot().environments().get(0).throughputPerSec(), 1e-9, "only seconds after the warm-up");
    }

    @Test
    void logLinesAreHandedOverOnce() {
        LiveBoard b = new LiveBoard(List.of("bare"), 1, Duration.ZERO);
        b.log("one");
        b.log("two");
        assertEquals(List.of("one", "two"), b.snapshot().newLogLines());
        assertEquals(List.of(), b.snapshot().newLogLines());
    }
}
