package io.envbench.measure.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** Verdicts judged together, and the smallest change each could have shown. */
class VerdictFamilyTest {
    private static final double[] BASE = {96, 98, 102, 104};

    private static RunStatistics runs(double... values) {
        return RunStatistics.of(Arrays.stream(values).boxed().toList());
    }

    private static Verdict verdict(String env, double... values) {
        return Verdict.ofRuns(env, "figure", "bare", runs(values), runs(BASE), 0.05);
    }

    @Test
    void detectableChangeIsWhereRunsPartCompletely() {
        // 4 vs 4 at 0.05 needs every run apart (p = 0.029; one overlap gives 0.057): the spread 96..104 must be
        // crossed, up by 104 / 96 (8.3%), down by 96 / 104 (7.7%); the larger counts
        double pct = DetectableChange.pct(BASE, BASE, p -> p < 0.05);
        assertEquals(100 * (104.0 / 96 - 1), pct, 1e-6);
        assertEquals(
                0, DetectableChange.pct(new double[] {5, 5, 5, 5}, new double[] {7, 7, 7, 7}, p -> p < 0.05), 1e-6);
        assertTrue(Double.isInfinite(DetectableChange.pct(BASE, BASE, p -> p < 0.02)), "4 vs 4 never reaches 0.02");
        assertTrue(Double.isNaN(DetectableChange.pct(new double[] {0, 0, 0, 0}, BASE, p -> p < 0.05)), "0 has no %");
    }

    @Test
    void aRunAtZeroIsTakenAsItStands() {
        // a 90% line of 0 ms in one run of a fast local target: scaling 0 never crosses anything, and the other runs
        // still tell how far the medians must part
        double[] withZero = {0, 1, 1, 1};
        double[] base = {1, 1, 1, 2};
        double pct = DetectableChange.pct(withZero, base, p -> p < 0.05);
        assertTrue(pct > 0 && !Double.isNaN(pct), "got " + pct);
        assertTrue(Double.isInfinite(DetectableChange.pct(withZero, base, p -> p < 0.02)), "4 vs 4 never reaches 0.02");
    }

    @Test
    void noChangeBelowAMillisecondIsCalledDetectableInWholeMilliseconds() {
        // every run's 90% line 2 ms on both sides: alike runs, but a change under 1 ms (50% of 2) cannot show in them
        RunStatistics two = RunStatistics.of(List.of(2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0));
        Verdict p90 = Verdict.of("docker", "GET", Figure.P90, "bare", two, two, 0.05);
        assertEquals(50, p90.detectablePct(), 1e-9);
        assertEquals(
                50,
                VerdictFamily.of(List.of(p90), Correction.BH)
                        .get("docker", "GET", Figure.P90)
                        .orElseThrow()
                        .detectablePct(),
                1e-9,
                "the family keeps the floor");
        Verdict throughput = Verdict.of("docker", "GET", Figure.THROUGHPUT, "bare", two, two, 0.05);
        assertTrue(
                throughput.detectablePct() < 1, "a rate is no whole number of anything: " + throughput.detectablePct());
    }

    @Test
    void moreRunsDetectSmallerChanges() {
        double[] eight = {96, 97, 98, 99, 101, 102, 103, 104};
        double four = DetectableChange.pct(BASE, BASE, p -> p < 0.05);
        double atEight = DetectableChange.pct(eight, eight, p -> p < 0.05);
        assertTrue(atEight < four, atEight + " at 8 runs vs " + four + " at 4");
    }

    @Test
    void holmTakesBackAChanceFindingThatBenjaminiHochbergKeepsWhenAllDiffer() {
        // three environments each entirely above the baseline: raw p = 0.029 each
        List<Verdict> raw = List.of(
                verdict("a", 110, 111, 112, 113), verdict("b", 120, 121, 122, 123), verdict("c", 130, 131, 132, 133));
        raw.forEach(v -> assertTrue(v.significant(), v.text()));
        VerdictFamily holm = VerdictFamily.of(raw, Correction.HOLM);
        assertEquals(3, holm.size());
        assertEquals(0, holm.significant(), "0.029 x 3 > 0.05");
        assertEquals(3, holm.significantUnadjusted());
        Verdict a = holm.get("a", "figure", null).orElseThrow();
        assertEquals(Verdict.Kind.NOT_SIGNIFICANT, a.kind());
        assertTrue(Double.isInfinite(a.detectablePct()), "no 4 vs 4 outcome survives Holm over three");
        assertTrue(a.text().contains("no change detectable with this many runs"), a.text());
        assertTrue(a.mark().contains("adjusted 0.086"), a.mark());
        VerdictFamily bh = VerdictFamily.of(raw, Correction.BH);
        assertEquals(3, bh.significant(), "all three as small: BH keeps them");
        assertEquals(0.0286, bh.get("c", "figure", null).orElseThrow().adjustedP(), 1e-3);
    }

    @Test
    void aNoChangeVerdictSaysHowLargeAChangeWouldHaveShown() {
        List<Verdict> raw = List.of(verdict("same", 97, 99, 101, 103), verdict("bare", BASE));
        VerdictFamily family = VerdictFamily.of(raw, Correction.BH);
        assertEquals(1, family.size(), "the baseline is no test");
        Verdict same = family.get("same", "figure", null).orElseThrow();
        assertFalse(same.significant());
        assertTrue(same.detectablePct() > 5 && same.detectablePct() < 12, same.text());
        assertTrue(
                same.text().matches("~ \\(p=1\\.000 n=4; no change larger than \\d+\\.\\d% detectable here\\)"),
                same.text());
        assertEquals(
                Verdict.Kind.BASELINE,
                family.get("bare", "figure", null).orElseThrow().kind());
    }

    @Test
    void jmeterFiguresOfEnvironmentsTheGeneratorBoundGetNoVerdictAndLeaveTheFamily() {
        RunStatistics base = runs(BASE);
        List<Verdict> raw = List.of(
                Verdict.of("a", "GET /", Figure.THROUGHPUT, "bare", runs(110, 111, 112, 113), base, 0.05),
                Verdict.of("bound", "GET /", Figure.THROUGHPUT, "bare", runs(130, 131, 132, 133), base, 0.05),
                // a figure of its own (CPU per request): not paced by JMeter, still judged
                Verdict.ofRuns("bound", "CPU per request", "bare", runs(130, 131, 132, 133), base, 0.05));
        VerdictFamily f = VerdictFamily.of(raw, Correction.BH, Set.of("bound"));
        assertEquals(2, f.size(), "a's throughput and bound's CPU per request");
        Verdict bound = f.get("bound", "GET /", Figure.THROUGHPUT).orElseThrow();
        assertEquals(Verdict.Kind.GENERATOR_BOUND, bound.kind());
        assertTrue(bound.text().contains("no verdict: the load generator set the pace"), bound.text());
        assertTrue(f.get("bound", "CPU per request", null).orElseThrow().significant());
        VerdictFamily baselineBound = VerdictFamily.of(raw, Correction.BH, Set.of("bare"));
        assertEquals(1, baselineBound.size(), "the baseline bound: only the CPU per request holds");
    }

    @Test
    void oneComparisonTwiceIsRefused() {
        Verdict v = verdict("a", 110, 111, 112, 113);
        assertThrows(IllegalArgumentException.class, () -> VerdictFamily.of(List.of(v, v), Correction.BH));
    }
}
