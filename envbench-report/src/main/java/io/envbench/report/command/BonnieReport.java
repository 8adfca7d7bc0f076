package io.envbench.report.command;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.envbench.measure.stats.AcrossRuns;
import io.envbench.measure.stats.Correction;
import io.envbench.measure.stats.MannWhitney;
import io.envbench.measure.stats.RunStatistics;
import io.envbench.measure.stats.Verdict;
import io.envbench.measure.stats.VerdictFamily;
import io.envbench.report.ComparisonCharts;
import io.envbench.report.ComparisonReport;
import io.envbench.report.EnvironmentPalette;
import io.envbench.study.bonnie.BonnieComparison;
import io.envbench.study.bonnie.BonnieFigure;
import io.envbench.study.experiment.Experiment;
import org.jfree.chart.JFreeChart;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The report of a bonnie++ experiment, as the study printed it: per bonnie++ figure a table of the places, each as its
 * median of runs, its 95% interval (with too few runs for one: the lowest to the highest run, and it says so), both
 * also relative to the baseline = 100, and the verdict against the baseline; and the rate figures relative to the
 * baseline = 100 in a plain and a log-scale chart ({@link ComparisonCharts#relativeBars}). Files: {@code bonnie.md},
 * {@code bonnie.csv}, {@code charts/bonnie-relative[-log].png|svg|pdf}.
 */
public final class BonnieReport implements CommandReport {
    public static final String CHART = "bonnie-relative";
    public static final String LOG_CHART = "bonnie-relative-log";

    private final BonnieComparison comparison;
    private final EnvironmentPalette palette;
    /** Every figure x place's verdict, judged together as the report states them all. */
    private final VerdictFamily family;

    public BonnieReport(BonnieComparison comparison) {
        this(comparison, Experiment.DEFAULT_CORRECTION);
    }

    public BonnieReport(BonnieComparison comparison, Correction correction) {
        this.comparison = comparison;
        this.palette = EnvironmentPalette.of(comparison.environments());
        List<Verdict> all = new ArrayList<>();
        for (BonnieFigure f : figures()) {
            for (String env : comparison.environments()) {
                all.add(comparison.versusBaseline(env, f));
            }
        }
        this.family = VerdictFamily.of(all, correction);
    }

    /** The verdicts of every figure and place, judged together. */
    public VerdictFamily verdicts() {
        return family;
    }

    /** One row of a figure's table. */
    public record Row(
            BonnieFigure figure,
            String environment,
            RunStatistics runs,
            double low,
            double high,
            boolean interval95,
            long tooQuick,
            Verdict verdict) {
        public double median() {
            return runs.median();
        }
    }

    /** The rows of a figure, one per place with a value, in the experiment's order. */
    public List<Row> rows(BonnieFigure figure) {
        List<Row> rows = new ArrayList<>();
        for (String env : comparison.environments()) {
            RunStatistics runs = comparison.runs(env, figure);
            long quick = comparison.tooQuick(env, figure);
            if (runs.runs() == 0 && quick == 0) {
                continue;
            }
            RunStatistics.MedianInterval ci = runs.medianCi95();
            double[] v = runs.values();
            double low = ci.available() ? ci.low() : v.length == 0 ? Double.NaN : v[0];
            double high = ci.available() ? ci.high() : v.length == 0 ? Double.NaN : v[v.length - 1];
            rows.add(new Row(
                    figure,
                    env,
                    runs,
                    low,
                    high,
                    ci.available(),
                    quick,
                    family.get(env, figure.title(), null).orElseThrow()));
        }
        return rows;
    }

    /** The figures bonnie++ measured in some place. */
    public List<BonnieFigure> figures() {
        return Arrays.stream(BonnieFigure.values())
                .filter(f -> comparison.measured(f)
                        || comparison.environments().stream().anyMatch(env -> comparison.tooQuick(env, f) > 0))
                .toList();
    }

    /**
     * A rate figure a place timed in too few runs for any verdict (bonnie++ printed "+++++" in the rest): its bar
     * would look like a finding no test could support, so the charts leave it out (all of the figure's bars when the
     * place is the baseline) and the tables say why.
     *
     * @param timed the runs that gave a number
     * @param of    the place's runs
     */
    public record Thin(BonnieFigure figure, String environment, long timed, int of) {}

    /** Every rate figure and place timed in more than none and fewer than a verdict needs, in table order. */
    public List<Thin> tooFewTimed() {
        int needed = MannWhitney.runsNeededEach(AcrossRuns.ALPHA);
        List<Thin> thin = new ArrayList<>();
        for (BonnieFigure f : figures()) {
            if (f.cpu()) {
                continue;
            }
            for (String env : comparison.environments()) {
                long runs = comparison.runs(env, f).runs();
                if (runs > 0 && runs < needed) {
                    thin.add(new Thin(f, env, runs, comparison.results(env).size()));
                }
            }
        }
        return thin;
    }

    private boolean charted(List<Thin> thin, BonnieFigure f, String env) {
        return thin.stream()
                .noneMatch(t -> t.figure() == f
                        && (t.environment().equals(env) || t.environment().equals(comparison.baseline())));
    }

    /** The rate figures (not CPU %) relative to the baseline, plain and log scale. */
    @Override
    public Map<String, JFreeChart> charts() {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        List<Thin> thin = tooFewTimed();
        for (BonnieFigure f : figures()) {
            if (f.cpu() || !(comparison.runs(comparison.baseline(), f).median() > 0)) {
                continue;
            }
            for (String env : comparison.environments()) {
                double median = comparison.runs(env, f).median();
                if (!Double.isNaN(median) && charted(thin, f, env)) {
                    d.addValue(comparison.percentOfBaseline(f, median), env, f.title());
                }
            }
        }
        String b = comparison.baseline();
        Map<String, JFreeChart> charts = new LinkedHashMap<>();
        charts.put(
                CHART,
                ComparisonCharts.relativeBars(
                        "bonnie++ relative to " + b + " — " + ComparisonCharts.HIGHER_IS_BETTER, b, d, false, palette));
        charts.put(
                LOG_CHART,
                ComparisonCharts.relativeBars(
                        "bonnie++ relative to " + b + ", log scale — " + ComparisonCharts.HIGHER_IS_BETTER,
                        b,
                        d,
                        true,
                        palette));
        return charts;
    }

    /** A bar per place and figure: as tall as they need to keep each bar's figure readable. */
    @Override
    public int chartHeight(Map<String, JFreeChart> charts) {
        int bars = charts.get(CHART).getCategoryPlot().getDataset().getRowCount()
                * charts.get(CHART).getCategoryPlot().getDataset().getColumnCount();
        return Math.max(ComparisonReport.CHART_HEIGHT, 120 + 22 * bars);
    }

    @Override
    public String tableFile() {
        return "bonnie.md";
    }

    /** A table per figure. */
    @Override
    public String markdown() {
        String b = comparison.baseline();
        StringBuilder s = new StringBuilder("# bonnie++ per place, relative to " + b + " = 100\n\n");
        s.append(
                "Each cell is over the runs of a place: the median of runs, and its 95% confidence interval (distribution-free, "
                        + "from order statistics; with fewer than " + RunStatistics.runsNeededForMedianInterval()
                        + " runs none exists, so the "
                        + "lowest to the highest run is given, marked \"range\"). \"% of " + b + "\" divides by " + b
                        + "'s median of runs. "
                        + "\"vs " + b
                        + "\" is the change of medians with the exact Mann-Whitney p over the per-run values.\n\n");
        s.append(family.note("every figure x place")).append('\n');
        List<Thin> thin = tooFewTimed();
        if (!thin.isEmpty()) {
            s.append("\nNot in the charts: ")
                    .append(String.join(
                            ", ",
                            thin.stream()
                                    .map(t -> t.figure().title() + " of " + t.environment() + " (timed in " + t.timed()
                                            + " of " + t.of() + " runs"
                                            + (t.environment().equals(b) ? ", so every place's bar of it" : "") + ")")
                                    .toList()))
                    .append(": bonnie++ found the rest too quick to time, and a bar of so few runs would show a"
                            + " difference no test could support (")
                    .append(MannWhitney.runsNeededEach(AcrossRuns.ALPHA))
                    .append(" runs a side are needed for a verdict). A larger -n times them.\n");
        }
        for (BonnieFigure f : figures()) {
            s.append("\n## ")
                    .append(f.title())
                    .append(" (")
                    .append(f.unit())
                    .append(", ")
                    .append(f.higherIsBetter() ? "higher is better" : "lower is better")
                    .append(")\n\n");
            s.append("| place | runs | median | 95% interval | % of ")
                    .append(b)
                    .append(" | interval, % of ")
                    .append(b)
                    .append(" | vs ")
                    .append(b)
                    .append(" |\n|---|---:|---:|---:|---:|---:|---|\n");
            for (Row r : rows(f)) {
                if (r.runs().runs() == 0) {
                    s.append("| ")
                            .append(r.environment())
                            .append(" | 0 | too quick to time (+++++) in ")
                            .append(r.tooQuick())
                            .append(" runs | | | | |\n");
                    continue;
                }
                s.append("| ")
                        .append(r.environment())
                        .append(" | ")
                        .append(r.runs().runs())
                        .append(r.tooQuick() > 0 ? " (+" + r.tooQuick() + " too quick)" : "")
                        .append(" | ")
                        .append(number(r.median()))
                        .append(" | ")
                        .append(number(r.low()))
                        .append("–")
                        .append(number(r.high()))
                        .append(r.interval95() ? "" : " range")
                        .append(" | ")
                        .append(pct(comparison.percentOfBaseline(f, r.median())))
                        .append(" | ")
                        .append(pct(comparison.percentOfBaseline(f, r.low())))
                        .append("–")
                        .append(pct(comparison.percentOfBaseline(f, r.high())))
                        .append(" | ")
                        .append(r.verdict().mark())
                        .append(" |\n");
            }
        }
        return s.toString();
    }

    /** One row per figure x place. */
    @Override
    public String csv() {
        StringBuilder s = new StringBuilder(
                "figure,unit,environment,runs,tooQuickRuns,medianOfRuns,low,high,interval,pctOfBaseline,pctLow,"
                        + "pctHigh,changePct,p,adjustedP,verdict,detectablePct\n");
        for (BonnieFigure f : figures()) {
            for (Row r : rows(f)) {
                s.append(String.join(
                                ",",
                                f.title(),
                                f.unit(),
                                r.environment(),
                                Long.toString(r.runs().runs()),
                                Long.toString(r.tooQuick()),
                                CsvNumber.raw(r.median()),
                                CsvNumber.raw(r.low()),
                                CsvNumber.raw(r.high()),
                                r.runs().runs() == 0 ? "" : r.interval95() ? "ci95" : "range",
                                CsvNumber.raw(comparison.percentOfBaseline(f, r.median())),
                                CsvNumber.raw(comparison.percentOfBaseline(f, r.low())),
                                CsvNumber.raw(comparison.percentOfBaseline(f, r.high())),
                                CsvNumber.raw(r.verdict().changePct()),
                                CsvNumber.raw(r.verdict().p()),
                                CsvNumber.raw(r.verdict().adjustedP()),
                                r.verdict().kind().word(),
                                CsvNumber.raw(r.verdict().detectablePct())))
                        .append('\n');
            }
        }
        return s.toString();
    }

    private static String number(double v) {
        if (Double.isNaN(v)) {
            return "";
        }
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%,.1f", v);
    }

    private static String pct(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.0f", v);
    }
}
