package io.envbench.report.command;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.envbench.measure.stats.RatioOfRuns;
import io.envbench.measure.stats.RunStatistics;
import io.envbench.report.ComparisonCharts;
import io.envbench.report.EnvironmentPalette;
import io.envbench.report.MedianOfRunsDataset;
import io.envbench.study.psql.PsqlComparison;
import io.envbench.study.psql.PsqlTimes;
import org.jfree.chart.JFreeChart;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The report of study 002 (docs/studies.md#study-002) (psql's round trips in four places), as the study printed it: per
 * phase (insert, select) a table of the places with elapsed, user and system time, each the median of runs with its 95%
 * interval, and the overhead of each place against the baseline (client and server on the host) and against the same
 * container (the study's reference), each the ratio of medians with its distribution-free 95% interval ({@link
 * RatioOfRuns}). Charts: the elapsed time per phase and place with its interval, and the elapsed time relative to the
 * baseline = 100. Files: {@code psql.md}, {@code psql.csv}, {@code charts/psql-elapsed.*}, {@code
 * charts/psql-relative.*}.
 */
public final class PsqlReport implements CommandReport {
    public static final String CHART = "psql-elapsed";
    public static final String RELATIVE_CHART = "psql-relative";

    private final PsqlComparison comparison;
    private final EnvironmentPalette palette;

    public PsqlReport(PsqlComparison comparison) {
        this.comparison = comparison;
        this.palette = EnvironmentPalette.of(comparison.environments());
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

    /** One place in one phase: its three times and its elapsed time against the two references. */
    public record Row(
            String phase,
            String environment,
            Cell elapsed,
            Cell user,
            Cell sys,
            RatioOfRuns versusBaseline,
            Optional<RatioOfRuns> versusSameContainer) {
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
                    env,
                    Cell.of(elapsed),
                    Cell.of(comparison.runs(env, phase, PsqlTimes.Time.USER)),
                    Cell.of(comparison.runs(env, phase, PsqlTimes.Time.SYS)),
                    comparison.overhead(env, comparison.baseline(), phase, PsqlTimes.Time.ELAPSED),
                    comparison.sameContainer().map(s -> comparison.overhead(env, s, phase, PsqlTimes.Time.ELAPSED))));
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
                        + "highest run is given, marked \"range\"). The overheads compare elapsed times: the ratio of medians as a change "
                        + "(+1.4% is the study's 11.908 s against 11.741 s) and its distribution-free 95% interval over all pairs of runs "
                        + "(needs 4 runs a side; \"n/a\" with fewer).\n");
        for (String phase : phases()) {
            s.append("\n## ")
                    .append(phase)
                    .append(" (")
                    .append(comparison.statements(phase))
                    .append(" statements)\n\n");
            s.append("| place | runs | elapsed s | user s | sys s | vs ")
                    .append(b)
                    .append(same.map(x -> " | vs " + x).orElse(""))
                    .append(" |\n|---|---:|---:|---:|---:|---:")
                    .append(same.isPresent() ? "|---:" : "")
                    .append("|\n");
            for (Row r : rows(phase)) {
                s.append("| ")
                        .append(r.environment())
                        .append(" | ")
                        .append(r.elapsed().runs().runs())
                        .append(" | ")
                        .append(cell(r.elapsed()))
                        .append(" | ")
                        .append(cell(r.user()))
                        .append(" | ")
                        .append(cell(r.sys()))
                        .append(" | ")
                        .append(r.environment().equals(b) ? "reference" : change(r.versusBaseline()));
                if (same.isPresent()) {
                    s.append(" | ")
                            .append(
                                    r.environment().equals(same.get())
                                            ? "reference"
                                            : change(r.versusSameContainer().orElseThrow()));
                }
                s.append(" |\n");
            }
        }
        return s.toString();
    }

    /** One row per phase x place x time, with the elapsed overheads on each row of that place. */
    @Override
    public String csv() {
        StringBuilder s = new StringBuilder(
                "phase,statements,environment,time,runs,medianS,lowS,highS,interval,"
                        + "vsBaselinePct,vsBaselineLowPct,vsBaselineHighPct,vsSameContainerPct,vsSameContainerLowPct,vsSameContainerHighPct\n");
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
                                    vs.map(v -> pctRaw(v.high())).orElse("")))
                            .append('\n');
                }
            }
        }
        return s.toString();
    }

    private static String cell(Cell c) {
        if (c.runs().runs() == 0) {
            return "";
        }
        return String.format(
                Locale.ROOT, "%.3f (%.3f–%.3f%s)", c.median(), c.low(), c.high(), c.interval95() ? "" : " range");
    }

    private static String change(RatioOfRuns r) {
        if (Double.isNaN(r.ratio())) {
            return "";
        }
        return String.format(Locale.ROOT, "%+.1f%% ", 100 * (r.ratio() - 1))
                + (r.available()
                        ? String.format(Locale.ROOT, "(%+.1f%% to %+.1f%%)", 100 * (r.low() - 1), 100 * (r.high() - 1))
                        : "(n/a)");
    }

    /** (ratio - 1) x 100 as plain text; empty for no value. */
    private static String pctRaw(double ratio) {
        return Double.isNaN(ratio) ? "" : raw(Math.round((ratio - 1) * 1e6) / 1e4);
    }

    /** Seconds to the microsecond (bash's time gives milliseconds; a median of two may add half of one). */
    private static String seconds(double v) {
        return Double.isNaN(v) ? "" : raw(Math.round(v * 1e6) / 1e6);
    }

    private static String raw(double v) {
        return Double.isNaN(v)
                ? ""
                : new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
    }
}
