package io.envbench.measure.stats;

import java.util.Locale;

import net.jcip.annotations.Immutable;

/**
 * Whether one figure of an environment x label differs from the baseline's, judged from one value per run: the change
 * of the median of runs, and the exact Mann-Whitney U test on the per-run values (benchstat's method). Immutable.
 *
 * @param runs this environment's per-run values
 * @param baselineRuns the baseline's per-run values
 * @param changePct (median / baseline median - 1) x 100; 0 for equal medians; NaN without runs or from a baseline median of 0
 * @param test the U test of runs against baselineRuns; null for the baseline itself or without runs
 * @param alpha the significance level
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
        double alpha) {
    public enum Kind {
        /** This is the baseline. */
        BASELINE("baseline"),
        /** p &lt; alpha: the difference holds across runs. */
        SIGNIFICANT("significant"),
        /** p &gt;= alpha: "~", no difference shown. */
        NOT_SIGNIFICANT("~"),
        /** So few runs that even complete separation could not reach p &lt; alpha: no verdict possible. */
        TOO_FEW_RUNS("too few runs"),
        /** This environment or the baseline has no run with this label. */
        NO_RUNS("no runs");

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
            return new Verdict(
                    environment, label, figure, baseline, runs, baselineRuns, Kind.NO_RUNS, Double.NaN, null, alpha);
        }
        if (environment.equals(baseline)) {
            return new Verdict(environment, label, figure, baseline, runs, baselineRuns, Kind.BASELINE, 0, null, alpha);
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
        return new Verdict(environment, label, figure, baseline, runs, baselineRuns, kind, change, test, alpha);
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
     * The verdict in full, as benchstat writes it: "+10.2% (p=0.002 n=6)", "~ (p=0.485 n=3+5)" (runs of each side), "baseline",
     * "too few runs (3 vs 3; at least 4 each needed for p<0.05)" or "no runs (...)".
     */
    public String text() {
        return switch (kind) {
            case BASELINE -> "baseline";
            case SIGNIFICANT -> change() + " (" + pText() + " " + nText() + ")";
            case NOT_SIGNIFICANT -> "~ (" + pText() + " " + nText() + ")";
            case TOO_FEW_RUNS ->
                "too few runs (" + runs.runs() + " vs " + baselineRuns.runs() + "; at least "
                        + MannWhitney.runsNeededEach(alpha) + " each needed for p<" + alpha + ")";
            case NO_RUNS ->
                "no runs (" + runs.runs() + " of " + environment + ", " + baselineRuns.runs() + " of baseline "
                        + baseline + ")";
        };
    }

    /**
     * The verdict for a table cell: "+10.2% p=0.002", "~ p=0.485", "baseline", "+10.2% (too few runs: 3 vs 3)" (the
     * change, and that it is no verdict) or "no runs".
     */
    public String mark() {
        return switch (kind) {
            case BASELINE -> "baseline";
            case SIGNIFICANT -> change() + " " + pText();
            case NOT_SIGNIFICANT -> "~ " + pText();
            case TOO_FEW_RUNS -> change() + " (too few runs: " + runs.runs() + " vs " + baselineRuns.runs() + ")";
            case NO_RUNS -> "no runs";
        };
    }

    private String change() {
        return Double.isNaN(changePct) ? "?" : String.format(Locale.ROOT, "%+.1f%%", changePct);
    }

    private String pText() {
        return p() < 0.001 ? "p<0.001" : String.format(Locale.ROOT, "p=%.3f", p());
    }

    private String nText() {
        return runs.runs() == baselineRuns.runs() ? "n=" + runs.runs() : "n=" + runs.runs() + "+" + baselineRuns.runs();
    }
}
