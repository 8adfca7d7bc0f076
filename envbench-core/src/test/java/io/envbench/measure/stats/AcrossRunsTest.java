package io.envbench.measure.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import io.envbench.measure.results.Sample;
import org.junit.jupiter.api.Test;

/** Verdicts from runs of a real {@link Comparison} built from synthetic samples. */
class AcrossRunsTest {
    private static final String LABEL = "GET /";

    /**
     * Adds one run of 200 samples: elapsed ms drawn around meanMs (whole ms, as JTLs), one sample started every
     * gapMs (so throughput is about 1000 / gapMs), the first errors of them failed.
     */
    private static void addRun(
            Comparison c, String env, String run, double meanMs, double gapMs, int errors, Random r) {
        long start = 1_000_000;
        for (int i = 0; i < 200; i++) {
            long elapsed = Math.max(1, Math.round(meanMs * (1 + 0.01 * r.nextGaussian())));
            c.add(new Sample(env, LABEL, start + Math.round(i * gapMs), elapsed, i >= errors, 1000, 100), run);
        }
    }

    /** runs x (bare, docker), each run's mean and gap drawn with relative noise around the given centres. */
    private static Comparison twoEnvironments(
            int bareRuns, int dockerRuns, double dockerFactor, double runNoise, long seed) {
        Random r = new Random(seed);
        Comparison c = new Comparison();
        for (int i = 0; i < Math.max(bareRuns, dockerRuns); i++) {
            if (i < bareRuns) {
                addRun(
                        c,
                        "bare",
                        "run" + i,
                        100 * (1 + runNoise * r.nextGaussian()),
                        10 * (1 + runNoise * r.nextGaussian()),
                        0,
                        r);
            }
            if (i < dockerRuns) {
                addRun(
                        c,
                        "docker",
                        "run" + i,
                        100 * dockerFactor * (1 + runNoise * r.nextGaussian()),
                        10 * dockerFactor * (1 + runNoise * r.nextGaussian()),
                        0,
                        r);
            }
        }
        return c;
    }

    @Test
    void runsFromOneDistributionGiveNoDifference() {
        AcrossRuns across = new AcrossRuns(twoEnvironments(6, 6, 1.0, 0.03, 42), null);
        assertEquals("bare", across.baseline());
        for (Figure f : List.of(Figure.THROUGHPUT, Figure.MEAN, Figure.P90)) {
            Verdict v = across.versusBaseline("docker", LABEL, f);
            assertEquals(Verdict.Kind.NOT_SIGNIFICANT, v.kind(), f + ": " + v.text());
            assertTrue(v.text().startsWith("~ (p="), v.text());
            assertTrue(v.text().contains(" n=6; no change larger than "), v.text());
            // runs drawn with 3% noise: 6 vs 6 shows changes of a few % (a run-to-run spread's worth), not 0 or 50
            assertTrue(v.detectablePct() > 1 && v.detectablePct() < 20, v.text());
            assertTrue(v.mark().startsWith("~ p="), v.mark());
        }
    }

    /** Over many seeds: the exact test keeps false alarms at or below about 5% and finds a 10% shift every time. */
    @Test
    void falseAlarmsStayNearAlphaAndATenPercentShiftIsFound() {
        int trials = 200;
        int falseAlarms = 0;
        for (long seed = 0; seed < trials; seed++) {
            Random r = new Random(seed);
            double[] a = new double[6];
            double[] b = new double[6];
            double[] shifted = new double[6];
            for (int i = 0; i < 6; i++) {
                a[i] = 100 * (1 + 0.02 * r.nextGaussian());
                b[i] = 100 * (1 + 0.02 * r.nextGaussian());
                shifted[i] = 110 * (1 + 0.02 * r.nextGaussian());
            }
            falseAlarms += MannWhitney.test(a, b).significant(0.05) ? 1 : 0;
            assertTrue(MannWhitney.test(a, shifted).significant(0.05), "seed " + seed);
        }
        assertTrue(falseAlarms <= 0.08 * trials, "false alarms " + falseAlarms + " of " + trials);
    }

    @Test
    void aTenPercentShiftGivesAVerdictWithItsSign() {
        AcrossRuns across = new AcrossRuns(twoEnvironments(6, 6, 1.1, 0.01, 7), "bare");
        Verdict slower = across.versusBaseline("docker", LABEL, Figure.MEAN);
        assertEquals(Verdict.Kind.SIGNIFICANT, slower.kind(), slower.text());
        assertEquals(10, slower.changePct(), 2.5);
        assertEquals(2.0 / 924, slower.p(), 1e-12, "6 vs 6 completely separated");
        assertTrue(slower.text().matches("\\+\\d+\\.\\d% \\(p=0\\.002 n=6\\)"), slower.text());
        Verdict fewer = across.versusBaseline("docker", LABEL, Figure.THROUGHPUT);
        assertEquals(Verdict.Kind.SIGNIFICANT, fewer.kind(), fewer.text());
        assertEquals(100 * (1 / 1.1 - 1), fewer.changePct(), 2.5);
        assertTrue(fewer.mark().startsWith("-"), fewer.mark());
        Verdict base = across.versusBaseline("bare", LABEL, Figure.MEAN);
        assertEquals(Verdict.Kind.BASELINE, base.kind());
        assertEquals("baseline", base.text());
        assertTrue(across.versusBaseline("docker", Comparison.TOTAL, Figure.P90).significant(), "TOTAL too");
        Verdict noErrors = across.versusBaseline("docker", LABEL, Figure.ERROR_PCT);
        assertEquals(0.0, noErrors.changePct(), "0% errors on both sides: no change");
        assertEquals(1.0, noErrors.p());
        assertEquals("~ (p=1.000 n=6)", noErrors.text());
    }

    @Test
    void threeRunsEachCanGiveNoVerdictAndSaySo() {
        // completely separated and still no verdict: 3 vs 3 cannot reach p < 0.05
        AcrossRuns across = new AcrossRuns(twoEnvironments(3, 3, 1.5, 0.01, 3), null);
        Verdict v = across.versusBaseline("docker", LABEL, Figure.MEAN);
        assertEquals(Verdict.Kind.TOO_FEW_RUNS, v.kind());
        assertEquals("too few runs (3 vs 3; at least 4 each needed for p<0.05)", v.text());
        assertEquals(0.1, v.p(), 1e-12);
        assertTrue(v.mark().matches("\\+\\d+\\.\\d% \\(too few runs: 3 vs 3\\)"), v.mark());
        assertFalse(v.significant());
        Verdict one =
                new AcrossRuns(twoEnvironments(1, 1, 1.5, 0.01, 3), null).versusBaseline("docker", LABEL, Figure.P90);
        assertEquals(Verdict.Kind.TOO_FEW_RUNS, one.kind());
        // 3 vs 5 could reach 2 / C(8, 3) = 0.036, but fewer than 4 runs on one side give no verdict either
        Verdict uneven =
                new AcrossRuns(twoEnvironments(5, 3, 1.5, 0.01, 3), null).versusBaseline("docker", LABEL, Figure.MEAN);
        assertEquals(Verdict.Kind.TOO_FEW_RUNS, uneven.kind(), uneven.text());
        assertEquals(2.0 / 56, uneven.p(), 1e-12);
        Verdict fourVsFive =
                new AcrossRuns(twoEnvironments(5, 4, 1.5, 0.01, 3), null).versusBaseline("docker", LABEL, Figure.MEAN);
        assertEquals(Verdict.Kind.SIGNIFICANT, fourVsFive.kind(), fourVsFive.text());
        assertTrue(fourVsFive.text().endsWith(" n=4+5)"), fourVsFive.text());
    }

    /** Every figure of every run, from constructed runs whose figures are known in advance. */
    @Test
    void everyFigureIsTheMedianOfItsRuns() {
        Comparison c = new Comparison();
        List<Double> throughputs = new ArrayList<>();
        for (int run = 0; run < 6; run++) {
            long start = 5_000_000L * run; // runs at different times: pooled throughput would mean nothing
            for (int i = 0; i < 100; i++) {
                // elapsed 10+run except every tenth sample, which is 50+run: p90 and p99 known
                long elapsed = (i % 10 == 9 ? 50 : 10) + run;
                c.add(new Sample("bare", LABEL, start + 10L * i, elapsed, true, 1000, 100), "run" + run);
                c.add(new Sample("docker", LABEL, start + 10L * i, 2 * elapsed, i >= run, 1000, 100), "run" + run);
            }
            throughputs.add(100 / ((990 + 50 + run) / 1000.0)); // last sample (i = 99) is a slow one
        }
        AcrossRuns across = new AcrossRuns(c, "bare");
        double medianThroughput = (throughputs.get(2) + throughputs.get(3)) / 2;
        assertEquals(medianThroughput, across.medianOfRuns("bare", LABEL, Figure.THROUGHPUT), 1e-9);
        assertEquals(14.0 + 2.5, across.medianOfRuns("bare", LABEL, Figure.MEAN), 1e-9); // mean of run r: 14 + r
        assertEquals(12.5, across.medianOfRuns("bare", LABEL, Figure.MEDIAN), 1e-9);
        // LEGACY percentile, position p (n + 1) / 100: 90.9 lies 0.9 of the way from rank 90 (10 + r) to 91 (50 + r);
        // 95.95 and 99.99 among the 10 slow samples
        assertEquals(48.5, across.medianOfRuns("bare", LABEL, Figure.P90), 1e-9);
        assertEquals(52.5, across.medianOfRuns("bare", LABEL, Figure.P95), 1e-9);
        assertEquals(52.5, across.medianOfRuns("bare", LABEL, Figure.P99), 1e-9);
        assertEquals(0.0, across.medianOfRuns("bare", LABEL, Figure.ERROR_PCT));
        assertEquals(2.5, across.medianOfRuns("docker", LABEL, Figure.ERROR_PCT), 1e-9); // run r: r of 100 failed
        assertEquals(97.0, across.medianOfRuns("docker", Comparison.TOTAL, Figure.P90), 1e-9); // twice 46 + r

        Verdict p90 = across.versusBaseline("docker", LABEL, Figure.P90);
        assertEquals(100.0, p90.changePct(), 1e-9);
        assertEquals(Verdict.Kind.SIGNIFICANT, p90.kind());
        assertEquals(6, p90.runs().runs());
        assertEquals(p90.medianOfRuns(), across.medianOfRuns("docker", LABEL, Figure.P90));
        Verdict errors = across.versusBaseline("docker", LABEL, Figure.ERROR_PCT);
        assertTrue(Double.isNaN(errors.changePct()), "no % change from a baseline of 0");
        assertEquals(MannWhitney.Method.EXACT_WITH_TIES, errors.test().method());
        assertEquals(2, across.verdicts(Figure.P90).size() / 2, "GET / and TOTAL, two environments each");
    }

    @Test
    void unknownNamesAreNamedWithTheFix() {
        Comparison c = twoEnvironments(2, 2, 1.0, 0.01, 1);
        c.add(new Sample("docker", "only docker", 1, 1, true, 1, 1), "run0");
        AcrossRuns across = new AcrossRuns(c, null);
        IllegalArgumentException env = assertThrows(
                IllegalArgumentException.class, () -> across.medianOfRuns("docker-brige", LABEL, Figure.P90));
        assertEquals(
                "environment: 'docker-brige' is not in these results; use one of [bare, docker]", env.getMessage());
        IllegalArgumentException label = assertThrows(
                IllegalArgumentException.class, () -> across.versusBaseline("docker", "GET /x", Figure.P90));
        assertTrue(
                label.getMessage()
                        .startsWith("label: 'GET /x' is not in these results; use one of [GET /, only docker, TOTAL]"),
                label.getMessage());
        IllegalArgumentException none = assertThrows(
                IllegalArgumentException.class, () -> across.medianOfRuns("bare", "only docker", Figure.P90));
        assertTrue(
                none.getMessage().startsWith("label: 'only docker' has no samples in environment 'bare'"),
                none.getMessage());
        assertEquals(
                Verdict.Kind.NO_RUNS,
                across.versusBaseline("docker", "only docker", Figure.P90).kind());
        IllegalArgumentException alpha = assertThrows(IllegalArgumentException.class, () -> new AcrossRuns(c, null, 5));
        assertTrue(alpha.getMessage().startsWith("alpha: 5.0 is not"), alpha.getMessage());
    }

    @Test
    void figuresAreNamedAsCriteria() {
        assertEquals(
                List.of("throughput", "mean", "median", "p90", "p95", "p99", "errorPct"),
                Arrays.stream(Figure.values()).map(Figure::criterionName).toList());
        assertEquals(Figure.ERROR_PCT, Figure.byCriterionName("errorPct"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Figure.byCriterionName("P90"));
        assertTrue(e.getMessage().startsWith("figure: 'P90' is not a figure; use one of [throughput,"), e.getMessage());
    }
}
