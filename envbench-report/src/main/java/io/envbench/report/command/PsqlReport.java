package io.envbench.report.command;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.envbench.measure.stats.AcrossRuns;
import io.envbench.measure.stats.Correction;
import io.envbench.measure.stats.RatioOfRuns;
import io.envbench.measure.stats.RunStatistics;
import io.envbench.measure.stats.Verdict;
import io.envbench.measure.stats.VerdictFamily;
import io.envbench.report.ComparisonCharts;
import io.envbench.report.EnvironmentPalette;
import io.envbench.report.MedianOfRunsDataset;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.psql.PsqlComparison;
import io.envbench.study.psql.PsqlTimes;
import org.jfree.chart.JFreeChart;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The report of study 002 (docs/studies.md#study-002) (psql's round trips in four places), as the study printed it: per
 * phase (insert, select) a table of the places with elapsed, user and system time, each the median of runs with its 95%
 * interval, and the overhead of each place against the baseline (client and server on the host) and against the same
 * container (the study's reference), each the ratio of medians with its distribution-free 95% interval ({@link
 * RatioOfRuns}), also in microseconds per statement (the cost of one round trip, which the study's percentages hide
 * behind its statements' own length), and the verdict of each overhead: the exact Mann-Whitney test on the per-run
 * elapsed times, every overhead of the report adjusted together, a "~" with the smallest change these runs could
 * have shown. Charts: the elapsed time per phase and place with its interval, and the elapsed time relative to the
 * baseline = 100. Files: {@code psql.md}, {@code psql.csv}, {@code charts/psql-elapsed.*}, {@code
 * charts/psql-relative.*}.
 */
public final class PsqlReport implements CommandReport {
    public static final String CHART = "psql-elapsed";
    public static final String RELATIVE_CHART = "psql-relative";

    private final PsqlComparison comparison;
    private final EnvironmentPalette palette;
    /** Every phase x place's elapsed time against both references, judged together as the report states them all. */
    private final VerdictFamily family;

    public PsqlReport(PsqlComparison comparison) {
        this(comparison, Experiment.DEFAULT_CORRECTION);
    }

    public PsqlReport(PsqlComparison comparison, Correction correction) {
        this.comparison = comparison;
        this.palette = EnvironmentPalette.of(comparison.environments());
        List<Verdict> all = new ArrayList<>();
        String b = comparison.baseline();
        Optional<String> same = comparison.sameContainer();
        for (String phase : comparison.phases()) {
            for (String env : comparison.environments()) {
                if (!env.equals(b)) {
                    all.add(test(env, b, phase));
                }
                // the same container against the host is the test above, once
                if (same.isPresent() && !env.equals(same.get()) && !env.equals(b)) {
                    all.add(test(env, same.get(), phase));
                }
            }
        }
        this.family = VerdictFamily.of(all, correction);
    }

    private Verdict test(String env, String reference, String phase) {
        return Verdict.ofRuns(
                env,
                label(phase, reference),
                reference,
                comparison.runs(env, phase, PsqlTimes.Time.ELAPSED),
                comparison.runs(reference, phase, PsqlTimes.Time.ELAPSED),
                AcrossRuns.ALPHA);
    }

    private static String label(String phase, String reference) {
        return phase + " elapsed vs " + reference;
    }

    /** The verdicts of every phase and place against both references, judged together. */
    public VerdictFamily verdicts() {
        return family;
    }

    /**
     * The verdict of environment's elapsed time in a phase against a reference: the family's, or "baseline" for the
     * reference itself.
     *
     * @throws java.util.NoSuchElementException for the baseline against the same container, which is tested once, as
     *     the same container against the baseline
     */
    public Verdict verdict(String phase, String environment, String reference) {
        return environment.equals(reference)
                ? test(environment, reference, phase)
                : family.get(environment, label(phase, reference), null).orElseThrow();
    }

    /** One cell: a time's median of runs with its interval (or, with too few runs, the lowest to the highest run). */
    public record Cell(RunStatistics runs, double low, double high, boolean interval95) {
        static Cell of(RunStatistics runs) {
            RunStatistics.MedianInterval ci = runs.medianCi95();
            double[] v = runs.values();
            return new Cell(
                    runs,
                    ci.available() ? ci.low() : v.length == 0 ? Double.NaN : v[0],
                    ci.available() ? ci.high() : v.length == 0 ? Double.NaN : v[v.length - 1],
                    ci.available());
        }

        public double median() {
            return runs.median();
        }
    }

    /**
     * One place in one phase: its three times and its elapsed time against the two references, as a ratio and as
     * microseconds added per statement.
     *
     * @param statements the phase's statements, each its own round trip
     */
    public record Row(
            String phase,
            long statements,
            String environment,
            Cell elapsed,
            Cell user,
            Cell sys,
            RatioOfRuns versusBaseline,
            Optional<RatioOfRuns> versusSameContainer,
            Verdict verdictVersusBaseline,
            Optional<Verdict> verdictVersusSameContainer) {
        /** The median elapsed time per statement: one round trip and the statement's own work, in µs. */
        public double microsPerStatement() {
            return micros(elapsed.median());
        }

        /**
         * The microseconds a statement took more than the reference's at a ratio to it (the ratio or an end of its
         * interval): ratio - 1 times the reference's median per statement.
         */
        public double addedMicros(RatioOfRuns r, double ratio) {
            return (ratio - 1) * micros(elapsed.median() / r.ratio());
        }

        private double micros(double seconds) {
            return statements == 0 ? Double.NaN : seconds * 1e6 / statements;
        }

        public Cell cell(PsqlTimes.Time t) {
            return switch (t) {
                case ELAPSED -> elapsed;
                case USER -> user;
                case SYS -> sys;
            };
        }
    }

    /** The rows of a phase, one per place with a run, in the experiment's order. */
    public List<Row> rows(String phase) {
        List<Row> rows = new ArrayList<>();
        for (String env : comparison.environments()) {
            RunStatistics elapsed = comparison.runs(env, phase, PsqlTimes.Time.ELAPSED);
            if (elapsed.runs() == 0) {
                continue;
            }
            rows.add(new Row(
                    phase,
                    comparison.statements(phase),
                    env,
                    Cell.of(elapsed),
                    Cell.of(comparison.runs(env, phase, PsqlTimes.Time.USER)),
                    Cell.of(comparison.runs(env, phase, PsqlTimes.Time.SYS)),
                    comparison.overhead(env, comparison.baseline(), phase, PsqlTimes.Time.ELAPSED),
                    comparison.sameContainer().map(s -> comparison.overhead(env, s, phase, PsqlTimes.Time.ELAPSED)),
                    verdict(phase, env, comparison.baseline()),
                    comparison
                            .sameContainer()
                            .filter(s -> !env.equals(comparison.baseline()))
                            .map(s -> verdict(phase, env, s))));
        }
        return rows;
    }

    public List<String> phases() {
        return comparison.phases();
    }

    @Override
    public Map<String, JFreeChart> charts() {
        MedianOfRunsDataset elapsed = new MedianOfRunsDataset();
        DefaultCategoryDataset relative = new DefaultCategoryDataset();
        boolean allIntervals = true;
        for (String phase : phases()) {
            String label = phase + " (" + comparison.statements(phase) + ")";
            for (Row r : rows(phase)) {
                elapsed.add(
                        r.environment(),
                        label,
                        r.elapsed().median(),
                        r.elapsed().low(),
                        r.elapsed().high());
                allIntervals &= r.elapsed().interval95();
                if (!Double.isNaN(r.versusBaseline().ratio())) {
                    relative.addValue(100 * r.versusBaseline().ratio(), r.environment(), label);
                }
            }
        }
        Map<String, JFreeChart> charts = new LinkedHashMap<>();
        charts.put(
                CHART,
                ComparisonCharts.medianBars(
                        "psql elapsed time per phase — " + ComparisonCharts.LOWER_IS_BETTER,
                        "s",
                        elapsed,
                        allIntervals
                                ? "95% confidence interval of the median"
                                : "95% interval of the median, or the lowest to the highest run " + "(fewer than "
                                        + RunStatistics.runsNeededForMedianInterval() + " runs)",
                        palette));
        String b = comparison.baseline();
        charts.put(
                RELATIVE_CHART,
                ComparisonCharts.relativeBars(
                        "psql elapsed time relative to " + b + " — " + ComparisonCharts.LOWER_IS_BETTER,
                        b,
                        relative,
                        false,
                        palette));
        return charts;
    }

    @Override
    public String tableFile() {
        return "psql.md";
    }

    /** A table per phase. */
    @Override
    public String markdown() {
        String b = comparison.baseline();
        Optional<String> same = comparison.sameContainer();
        StringBuilder s = new StringBuilder("# psql round trips per place\n\n");
        s.append(
                "Each time is psql's, as bash's `time` gives it (elapsed: wall clock; user and sys: psql's own CPU), in seconds, "
                        + "over the runs of a place: the median of runs and its 95% confidence interval (distribution-free, from order "
                        + "statistics; with fewer than " + RunStatistics.runsNeededForMedianInterval()
                        + " runs none exists and the lowest to the "
                        + "highest run is given, marked \"range\"). \"µs per statement\" is the median elapsed time over the "
                        + "phase's statements: each is its own round trip, so a place's added cost per round trip is the "
                        + "difference of these. The overheads compare elapsed times: the ratio of medians as a change "
                        + "(+1.4% is the study's 11.908 s against 11.741 s) and its distribution-free 95% interval over all pairs of runs "
                        + "(needs 4 runs a side; \"n/a\" with fewer), then the microseconds that change adds to each statement. "
                        + "Each verdict is the exact Mann-Whitney test on the per-run elapsed times.\n\n");
        s.append(family.note("elapsed time against " + b
                        + same.map(x -> " and against " + x).orElse("")))
                .append('\n');
        for (String phase : phases()) {
            s.append("\n## ")
                    .append(phase)
                    .append(" (")
                    .append(comparison.statements(phase))
                    .append(" statements)\n\n");
            s.append("| place | runs | µs per statement | elapsed s | user s | sys s | vs ")
                    .append(b)
                    .append(" | verdict vs ")
                    .append(b)
                    .append(same.map(x -> " | vs " + x + " | verdict vs " + x).orElse(""))
                    .append(" |\n|---|---:|---:|---:|---:|---:|---:|---")
                    .append(same.isPresent() ? "|---:|---" : "")
                    .append("|\n");
            for (Row r : rows(phase)) {
                s.append("| ")
                        .append(r.environment())
                        .append(" | ")
                        .append(r.elapsed().runs().runs())
                        .append(" | ")
                        .append(micros(r.microsPerStatement()))
                        .append(" | ")
                        .append(cell(r.elapsed()))
                        .append(" | ")
                        .append(cell(r.user()))
                        .append(" | ")
                        .append(cell(r.sys()))
                        .append(" | ")
                        .append(r.environment().equals(b) ? "reference" : change(r, r.versusBaseline()))
                        .append(" | ")
                        .append(
                                r.environment().equals(b)
                                        ? ""
                                        : r.verdictVersusBaseline().mark());
                if (same.isPresent()) {
                    String x = same.get();
                    s.append(" | ")
                            .append(
                                    r.environment().equals(x)
                                            ? "reference"
                                            : change(r, r.versusSameContainer().orElseThrow()))
                            .append(" | ")
                            .append(r.verdictVersusSameContainer()
                                    .filter(v -> v.kind() != Verdict.Kind.BASELINE)
                                    .map(Verdict::mark)
                                    .orElse(r.environment().equals(b) ? "as " + x + " vs " + b : ""));
                }
                s.append(" |\n");
            }
        }
        return s.toString();
    }

    /**
     * One row per phase x place x time, with the elapsed overheads on each row of that place; the verdicts (and the
     * microseconds added) on its elapsed row only, as they are of the elapsed time.
     */
    @Override
    public String csv() {
        StringBuilder s = new StringBuilder("phase,statements,environment,time,runs,medianS,lowS,highS,interval,"
                + "vsBaselinePct,vsBaselineLowPct,vsBaselineHighPct,vsSameContainerPct,vsSameContainerLowPct,vsSameContainerHighPct,"
                + "medianMicrosPerStatement,vsBaselineMicros,vsBaselineP,vsBaselineAdjustedP,vsBaselineVerdict,"
                + "vsBaselineDetectablePct,vsSameContainerMicros,vsSameContainerP,vsSameContainerAdjustedP,"
                + "vsSameContainerVerdict,vsSameContainerDetectablePct\n");
        for (String phase : phases()) {
            for (Row r : rows(phase)) {
                for (PsqlTimes.Time t : PsqlTimes.Time.values()) {
                    Cell c = r.cell(t);
                    RatioOfRuns vb = r.versusBaseline();
                    Optional<RatioOfRuns> vs = r.versusSameContainer();
                    s.append(String.join(
                                    ",",
                                    phase,
                                    Long.toString(comparison.statements(phase)),
                                    r.environment(),
                                    t.title(),
                                    Long.toString(c.runs().runs()),
                                    seconds(c.median()),
                                    seconds(c.low()),
                                    seconds(c.high()),
                                    c.interval95() ? "ci95" : "range",
                                    pctRaw(vb.ratio()),
                                    pctRaw(vb.low()),
                                    pctRaw(vb.high()),
                                    vs.map(v -> pctRaw(v.ratio())).orElse(""),
                                    vs.map(v -> pctRaw(v.low())).orElse(""),
                                    vs.map(v -> pctRaw(v.high())).orElse(""),
                                    microsRaw(c.median() * 1e6 / Math.max(1, r.statements())),
                                    verdictColumns(r, vb, Optional.of(r.verdictVersusBaseline()), t),
                                    verdictColumns(r, vs.orElse(null), r.verdictVersusSameContainer(), t)))
                            .append('\n');
                }
            }
        }
        return s.toString();
    }

    /** µs added, p, adjusted p, verdict and detectable change of an elapsed row against one reference; else empty. */
    private static String verdictColumns(Row row, RatioOfRuns r, Optional<Verdict> verdict, PsqlTimes.Time t) {
        if (t != PsqlTimes.Time.ELAPSED
                || r == null
                || verdict.isEmpty()
                || verdict.get().kind() == Verdict.Kind.BASELINE) {
            return ",,,,";
        }
        Verdict v = verdict.get();
        return String.join(
                ",",
                microsRaw(row.addedMicros(r, r.ratio())),
                CsvNumber.raw(v.p()),
                CsvNumber.raw(v.adjustedP()),
                v.kind().word(),
                CsvNumber.raw(v.detectablePct()));
    }

    private static String cell(Cell c) {
        if (c.runs().runs() == 0) {
            return "";
        }
        return String.format(
                Locale.ROOT, "%.3f (%.3f–%.3f%s)", c.median(), c.low(), c.high(), c.interval95() ? "" : " range");
    }

    /** "+37.5% (+12.1% to +81.6%), +81.8 µs": the change of the row's elapsed time, then per statement. */
    private static String change(Row row, RatioOfRuns r) {
        if (Double.isNaN(r.ratio())) {
            return "";
        }
        return String.format(Locale.ROOT, "%+.1f%% ", 100 * (r.ratio() - 1))
                + (r.available()
                        ? String.format(Locale.ROOT, "(%+.1f%% to %+.1f%%)", 100 * (r.low() - 1), 100 * (r.high() - 1))
                        : "(n/a)")
                + (row.statements() == 0
                        ? ""
                        : String.format(Locale.ROOT, ", %+.1f µs", row.addedMicros(r, r.ratio())));
    }

    /** Microseconds to the nanosecond, as plain text; empty for no value. */
    private static String microsRaw(double v) {
        return Double.isNaN(v) ? "" : CsvNumber.raw(Math.round(v * 1000) / 1000.0);
    }

    private static String micros(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.1f", v);
    }

    /** (ratio - 1) x 100 as plain text; empty for no value. */
    private static String pctRaw(double ratio) {
        return Double.isNaN(ratio) ? "" : CsvNumber.raw(Math.round((ratio - 1) * 1e6) / 1e4);
    }

    /** Seconds to the microsecond (bash's time gives milliseconds; a median of two may add half of one). */
    private static String seconds(double v) {
        return Double.isNaN(v) ? "" : CsvNumber.raw(Math.round(v * 1e6) / 1e6);
    }
}
