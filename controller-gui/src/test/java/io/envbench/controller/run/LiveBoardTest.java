package io.envbench.controller.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.results.Sample;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentText;
import io.envbench.study.experiment.PlannedRun;
import org.junit.jupiter.api.Test;

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
        assertEquals(
                7, b.snapshot().throughputSeries().get("bare").size(), "the newest second is left out while it fills");
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
        assertTrue(
                Double.isNaN(b.snapshot().environments().get(0).throughputPerSec()), "not the running run's samples");
        b.samples(BARE_1, load(1_003_000, 5, 20, true));
        assertEquals(
                20.0, b.snapshot().environments().get(0).throughputPerSec(), 1e-9, "only seconds after the warm-up");
    }

    /** A multi-tenant run: a row per tenant, fed by the samples' own tenant and its container's CPU, whatever the configuration. */
    @Test
    void aMultiTenantRunsRowsAreItsTenants() throws Exception {
        Path root = Path.of(System.getProperty("envbench.root", ".."))
                .toAbsolutePath()
                .normalize();
        Experiment e = ExperimentText.newMultiTenantExperiment()
                .parse(root.resolve("testplans/experiments/mt.yaml"), root.resolve("targets"))
                .withRepetitions(1);
        LiveBoard b = LiveBoard.of(e);
        assertTrue(b.tenants());
        assertEquals(List.of("tenant-1", "tenant-2", "tenant-3", "tenant-4"), b.environmentNames());
        PlannedRun staticRun = new PlannedRun(1, "static", 1);
        b.runStarting(staticRun, 2, 3, Duration.ofSeconds(60));
        List<Sample> samples = new ArrayList<>();
        for (Sample s : load(1_000_000, 200, 10, true)) { // after the 120 s warm-up: tenant-1 10/s, tenant-4 5/s
            samples.add(new Sample("tenant-1", s.label(), s.startMs(), s.elapsedMs(), true, 100, 10));
            if (s.elapsedMs() % 2 == 0) {
                samples.add(new Sample("tenant-4", s.label(), s.startMs(), s.elapsedMs(), false, 100, 10));
            }
        }
        b.samples(staticRun, samples);
        b.metrics(
                staticRun,
                new MetricsCollector.Tick(
                        1_200_000,
                        "tenant-1,tenant-2,tenant-3,tenant-4",
                        Map.of(
                                "container.tenant-1.cpu.pct",
                                40.0,
                                "container.tenant-4.cpu.pct",
                                90.0,
                                "host.cpu.pct",
                                70.0)));
        List<LiveBoard.EnvironmentFigures> rows = b.snapshot().environments();
        assertEquals(10.0, rows.get(0).throughputPerSec(), 1e-9);
        assertEquals(5.0, rows.get(3).throughputPerSec(), 1e-9);
        assertEquals(100.0, rows.get(3).errorPct());
        assertTrue(Double.isNaN(rows.get(1).throughputPerSec()), "tenant-2 sent nothing yet");
        assertEquals(40.0, rows.get(0).targetCpuPct());
        assertEquals(90.0, rows.get(3).targetCpuPct());
        assertEquals(70.0, rows.get(2).hostCpuPct());
        b.runEnded(new RunRecord(staticRun, Instant.EPOCH, Instant.EPOCH, "ok", 1, 1, null));
        assertEquals(
                List.of(1, 1, 1, 1),
                b.snapshot().environments().stream()
                        .map(LiveBoard.EnvironmentFigures::runsDone)
                        .toList(),
                "every tenant ran in the run");
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
