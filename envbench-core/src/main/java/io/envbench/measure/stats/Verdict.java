package io.envbench.measure.stats;

import java.util.Locale;

import net.jcip.annotations.Immutable;

/**
 * Whether one figure of an environment x label differs from the baseline's, judged from one value per run: the change
 * of the median of runs, and the exact Mann-Whitney U test on the per-run values (benchstat's method). Alone it is a
 * family of one; in a report, its p is adjusted with all the report's others ({@link VerdictFamily}) and the verdict
 * follows the adjusted p. Beside a "~" stands the smallest change this comparison could have shown
 * ({@link DetectableChange}). Immutable.
 *
 * @param runs this environment's per-run values
 * @param baselineRuns the baseline's per-run values
 * @param changePct (median / baseline median - 1) x 100; 0 for equal medians; NaN without runs or from a baseline median of 0
 * @param test the U test of runs against baselineRuns; null for the baseline itself or without runs
 * @param alpha the significance level
 * @param adjustedP the p-value adjusted over the family; equals the test's p in a family of one; NaN without a test
 * @param family how many tests were adjusted together (1 alone)
 * @param correction how they were adjusted
 * @param detectablePct the smallest change of the median, in % of it (up or down, whichever is larger), that this
 *     comparison would have called significant given the runs' spread and the family; infinite when no change
 *     could; NaN without a test
 */
@Immutable
public record Verdict(
        String environment,
        String label,
        Figure figure,
        String baseline,
        RunStatistics runs,
        RunStatistics baselineRuns,
        Kind kind,
        double changePct,
        MannWhitney.Result test,
        double alpha,
        double adjustedP,
        int family,
        Correction correction,
        double detectablePct) {
    public enum Kind {
        /** This is the baseline. */
        BASELINE("baseline"),
        /** adjusted p &lt; alpha: the difference holds across runs. */
        SIGNIFICANT("significant"),
        /** adjusted p &gt;= alpha: "~", no difference shown. */
        NOT_SIGNIFICANT("~"),
        /** So few runs that even complete separation could not reach p &lt; alpha: no verdict possible. */
        TOO_FEW_RUNS("too few runs"),
        /** This environment or the baseline has no run with this label. */
        NO_RUNS("no runs"),
        /**
         * The load generator, not the target, set this environment's or the baseline's pace: the figures measure
         * JMeter, so no verdict is drawn (the report says why).
         */
        GENERATOR_BOUND("generator-bound");

        private final String word;

        Kind(String word) {
            this.word = word;
        }

        /** "baseline", "significant", "~", "too few runs" or "no runs": the CSV's verdict column. */
        public String word() {
            return word;
        }
    }

    /**
     * The verdict on per-run values of a figure outside JMeter's ({@link #figure()} is then null; the label names it),
     * such as a bonnie++ figure: the same rule as for JMeter's figures.
     */
    public static Verdict ofRuns(
            String environment,
            String label,
            String baseline,
            RunStatistics runs,
            RunStatistics baselineRuns,
            double alpha) {
        return of(environment, label, null, baseline, runs, baselineRuns, alpha);
    }

    static Verdict of(
            String environment,
            String label,
            Figure figure,
            String baseline,
            RunStatistics runs,
            RunStatistics baselineRuns,
            double alpha) {
        if (runs.runs() == 0 || baselineRuns.runs() == 0) {
            return untested(environment, label, figure, baseline, runs, baselineRuns, Kind.NO_RUNS, Double.NaN, alpha);
        }
        if (environment.equals(baseline)) {
            return untested(environment, label, figure, baseline, runs, baselineRuns, Kind.BASELINE, 0, alpha);
        }
        double base = baselineRuns.median();
        // as benchstat: equal medians are 0%, a change from 0 has no percentage
        double change = runs.median() == base ? 0 : base == 0 ? Double.NaN : 100 * (runs.median() / base - 1);
        MannWhitney.Result test = MannWhitney.test(runs.values(), baselineRuns.values());
        // fewer runs a side than n vs n needs (4 at 0.05) gives no verdict, even where an uneven pair such as
        // 3 vs 5 could reach alpha: one side's few runs say too little about its own spread
        int needed = MannWhitney.runsNeededEach(alpha);
        Kind kind = runs.runs() < needed
                        || baselineRuns.runs() < needed
                        || MannWhitney.smallestPossibleP((int) runs.runs(), (int) baselineRuns.runs()) >= alpha
                ? Kind.TOO_FEW_RUNS
                : test.significant(alpha) ? Kind.SIGNIFICANT : Kind.NOT_SIGNIFICANT;
        double detectable = atResolution(
                figure, baselineRuns, DetectableChange.pct(runs.values(), baselineRuns.values(), p -> p < alpha));
        return new Verdict(
                environment,
                label,
                figure,
                baseline,
                runs,
                baselineRuns,
                kind,
                change,
                test,
                alpha,
                test.p(),
                1,
                Correction.BH,
                detectable);
    }

    /**
     * A smallest detectable change no finer than the figure can be measured: JMeter records each response time in
     * whole milliseconds, so where every run's 90% line is 1 ms a change below 1 ms cannot show in them, however
     * alike the runs are.
     */
    static double atResolution(Figure figure, RunStatistics baselineRuns, double pct) {
        if (figure == null || !figure.unit().equals("ms") || !(baselineRuns.median() > 0) || Double.isNaN(pct)) {
            return pct;
        }
        return Math.max(pct, 100 * RESOLUTION_MS / baselineRuns.median());
    }

    /** JMeter's resolution of a response time. */
    static final double RESOLUTION_MS = 1;

    private static Verdict untested(
            String environment,
            String label,
            Figure figure,
            String baseline,
            RunStatistics runs,
            RunStatistics baselineRuns,
            Kind kind,
            double change,
            double alpha) {
        return new Verdict(
                environment,
                label,
                figure,
                baseline,
                runs,
                baselineRuns,
                kind,
                change,
                null,
                alpha,
                Double.NaN,
                1,
                Correction.BH,
                Double.NaN);
    }

    /** Whether this verdict has a p-value that takes part in a family's adjustment. */
    boolean tested() {
        return kind == Kind.SIGNIFICANT || kind == Kind.NOT_SIGNIFICANT;
    }

    /** The same comparison without a verdict: the load generator bounded one side ({@link Kind#GENERATOR_BOUND}). */
    Verdict generatorBound() {
        return judged(Kind.GENERATOR_BOUND, Double.NaN, 1, correction, Double.NaN);
    }

    /** The same comparison judged within a family: its adjusted p decides, the detectable change is the family's. */
    Verdict inFamily(double adjusted, int size, Correction how, double detectable) {
        Kind k = tested() ? (adjusted < alpha ? Kind.SIGNIFICANT : Kind.NOT_SIGNIFICANT) : kind;
        return judged(k, tested() ? adjusted : Double.NaN, size, how, tested() ? detectable : Double.NaN);
    }

    private Verdict judged(Kind k, double adjusted, int size, Correction how, double detectable) {
        return new Verdict(
                environment,
                label,
                figure,
                baseline,
                runs,
                baselineRuns,
                k,
                changePct,
                test,
                alpha,
                adjusted,
                size,
                how,
                detectable);
    }

    public boolean significant() {
        return kind == Kind.SIGNIFICANT;
    }

    /** The median of this environment's runs. */
    public double medianOfRuns() {
        return runs.median();
    }

    /** The test's p-value; NaN for the baseline or without runs. */
    public double p() {
        return test == null ? Double.NaN : test.p();
    }

    /**
     * The verdict in full, after benchstat: "+10.2% (p=0.002 n=6)", in a family "+10.2% (p=0.002, adjusted 0.010,
     * n=6)", "~ (p=0.485 n=3+5; no change larger than 12.3% detectable here)" (runs of each side), "baseline",
     * "too few runs (3 vs 3; at least 4 each needed for p<0.05)" or "no runs (...)".
     */
    public String text() {
        return switch (kind) {
            case BASELINE -> "baseline";
            case SIGNIFICANT -> change() + " (" + pText() + " " + nText() + ")";
            case NOT_SIGNIFICANT ->
                "~ (" + pText() + " " + nText() + (Double.isNaN(detectablePct) ? "" : "; " + detectableText()) + ")";
            case TOO_FEW_RUNS ->
                "too few runs (" + runs.runs() + " vs " + baselineRuns.runs() + "; at least "
                        + MannWhitney.runsNeededEach(alpha) + " each needed for p<" + alpha + ")";
            case NO_RUNS ->
                "no runs (" + runs.runs() + " of " + environment + ", " + baselineRuns.runs() + " of baseline "
                        + baseline + ")";
            case GENERATOR_BOUND -> change() + " (no verdict: the load generator set the pace)";
        };
    }

    /**
     * The verdict for a table cell: "+10.2% p=0.002" (in a family "+10.2% p=0.002, adjusted 0.010"), "~ p=0.485 (MDE
     * 12.3%)", "baseline", "+10.2% (too few runs: 3 vs 3)" (the change, and that it is no verdict) or "no runs".
     */
    public String mark() {
        return switch (kind) {
            case BASELINE -> "baseline";
            case SIGNIFICANT -> change() + " " + pText();
            case NOT_SIGNIFICANT ->
                "~ " + pText() + (Double.isNaN(detectablePct) ? "" : " (MDE " + detectableShort() + ")");
            case TOO_FEW_RUNS -> change() + " (too few runs: " + runs.runs() + " vs " + baselineRuns.runs() + ")";
            case NO_RUNS -> "no runs";
            case GENERATOR_BOUND -> change() + " (generator-bound)";
        };
    }

    private String change() {
        return Double.isNaN(changePct) ? "?" : String.format(Locale.ROOT, "%+.1f%%", changePct);
    }

    private String pText() {
        return family == 1
                ? "p" + pValue(p())
                : "p" + pValue(p()) + ", adjusted " + pValue(adjustedP).replace("=", "");
    }

    private static String pValue(double p) {
        return p < 0.001 ? "<0.001" : String.format(Locale.ROOT, "=%.3f", p);
    }

    private String detectableText() {
        return Double.isInfinite(detectablePct)
                ? "no change detectable with this many runs"
                : "no change larger than " + detectableShort() + " detectable here";
    }

    /** "12.3%", or "none" where no change could have been shown. */
    private String detectableShort() {
        return Double.isInfinite(detectablePct)
                ? "none at this n"
                : String.format(Locale.ROOT, "%.1f%%", detectablePct);
    }

    private String nText() {
        return runs.runs() == baselineRuns.runs() ? "n=" + runs.runs() : "n=" + runs.runs() + "+" + baselineRuns.runs();
    }
}
