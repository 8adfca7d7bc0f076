package io.envbench.report;

import java.awt.Font;
import java.awt.Shape;
import java.awt.Stroke;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.stats.Comparison;
import io.envbench.measure.stats.RatioOfRuns;
import io.envbench.measure.stats.RunStatistics;
import io.envbench.measure.stats.SampleStatistics;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.labels.IntervalCategoryToolTipGenerator;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.labels.StandardCategoryToolTipGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.category.IntervalCategoryDataset;
import org.jfree.data.xy.XYDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The charts of a comparison, as JFreeChart objects (shown in the GUI, exported by {@link ChartFormat}), in
 * {@link ChartStyle}'s flat style, each environment in its {@link EnvironmentPalette} colour in every chart. Bars follow
 * our Redmine study (90% line: lower is better; throughput, KB/s: higher is better) and the bonnie++ study (relative to
 * the baseline = 100, optional log scale); a bar is the median of the runs' figures, its whisker their spread.
 */
public final class ComparisonCharts {
    public static final String LOWER_IS_BETTER = "lower is better";
    public static final String HIGHER_IS_BETTER = "higher is better";
    /** Host CPU in the metrics file: the whole machine is 100, whatever its cores. */
    static final String HOST_CPU_METRIC = MetricName.HOST_CPU.column();
    /** The target's CPU (container or process tree) in the metrics file: one core is 100. */
    static final String TARGET_CPU_METRIC = MetricName.TARGET_CPU.column();
    /** The metrics file's per-core host CPU columns, whose count is the host's cores. */
    static final Pattern PER_CORE_CPU_METRIC = MetricName.Family.CORE.any("pct");
    /** The one way the CPU chart counts: host and target alike. */
    public static final String CPU_AXIS = "CPU % (one core = 100)";
    /** With more labels than this, bars lie horizontal and their labels get a line of their own beside them. */
    private static final int MOST_LABELS_UNDER_BARS = 6;
    /** Above this many upright bars a bar is narrower than its figure written flat: the figures are turned upright. */
    private static final int MOST_BARS_WITH_FLAT_FIGURES = 24;

    private static final int CATEGORY_LABEL_LINES = 3;
    private static final double BYTES_PER_KB = 1024;
    /** An environment's colour in a legend: large enough to tell at half width. */
    private static final Shape LEGEND_SQUARE = new Rectangle2D.Double(-7, -7, 14, 14);
    /** The baseline on a relative chart. */
    private static final double BASELINE_PERCENT = 100;

    private final Comparison comparison;
    private final String baseline;
    private final EnvironmentPalette palette;

    /** @param baseline as {@link Comparison#baseline(String)}: null or blank picks "bare", else the first environment */
    public ComparisonCharts(Comparison comparison, String baseline) {
        this(comparison, baseline, EnvironmentPalette.of(comparison));
    }

    /**
     * @param palette the colours by the experiment's environment order, when it is known before every environment has
     *                results (a live view); it must name every environment of the comparison
     */
    public ComparisonCharts(Comparison comparison, String baseline, EnvironmentPalette palette) {
        this.comparison = comparison;
        this.baseline = comparison.baseline(baseline);
        this.palette = palette;
    }

    /** The colour of each environment in these charts, for tables and views beside them. */
    public EnvironmentPalette palette() {
        return palette;
    }

    /** The chart a report and the controller show first: throughput against the baseline, what a comparison is for. */
    public static final String HEADLINE = "relative-throughput";

    /** Every chart by file name (without extension), the {@link #HEADLINE} first. */
    public Map<String, JFreeChart> all() {
        Map<String, JFreeChart> m = new LinkedHashMap<>();
        m.put(
                HEADLINE,
                relative(
                        "Throughput relative to " + baseline + " — " + HIGHER_IS_BETTER,
                        SampleStatistics::throughputPerSec,
                        false));
        m.put(
                "relative-throughput-log",
                relative(
                        "Throughput relative to " + baseline + ", log scale — " + HIGHER_IS_BETTER,
                        SampleStatistics::throughputPerSec,
                        true));
        m.put(
                "throughput",
                bars("Throughput by label — " + HIGHER_IS_BETTER, "requests/s", SampleStatistics::throughputPerSec));
        m.put(
                "p90",
                bars(
                        "90% line by label (Aggregate Report) — " + LOWER_IS_BETTER,
                        Quantity.MILLISECONDS,
                        s -> s.aggregateReport90Ms()));
        m.put(
                "received",
                bars(
                        "Received by label — " + HIGHER_IS_BETTER,
                        Quantity.BYTES_PER_SECOND,
                        s -> s.receivedKBytesPerSec() * BYTES_PER_KB));
        m.put("response-time-over-time", overTime("Mean response time over time — " + LOWER_IS_BETTER, "ms", true));
        m.put("throughput-over-time", overTime("Throughput over time — " + HIGHER_IS_BETTER, "requests/s", false));
        m.put("percentiles", percentiles(Comparison.TOTAL));
        return m;
    }

    /**
     * Bars of a figure per label and environment, in a unit as given (e.g. "requests/s"): the median of the runs'
     * figures, with a whisker (see {@link #bars(String, Quantity, ToDoubleFunction)}).
     */
    public JFreeChart bars(String title, String unit, ToDoubleFunction<SampleStatistics> figure) {
        return bars(title, max -> Quantity.Scale.of(unit), figure);
    }

    /**
     * Bars of a figure per label and environment, computed in the quantity's unit and shown in the unit its size
     * asks for (MB/s, s): the median of the runs' figures, as the report's tables, with a whisker from 2 runs on: the
     * 95% confidence interval of the median ({@link RunStatistics#medianCi95()}), or with fewer runs than that needs
     * the lowest to the highest run. The subtitle says which.
     */
    public JFreeChart bars(String title, Quantity quantity, ToDoubleFunction<SampleStatistics> figure) {
        return bars(title, quantity::scaleFor, figure);
    }

    private JFreeChart bars(
            String title, DoubleFunction<Quantity.Scale> scaleForLargest, ToDoubleFunction<SampleStatistics> figure) {
        Map<String, Map<String, RunStatistics>> runsByLabel = new LinkedHashMap<>();
        double largest = 0;
        for (String label : comparison.rows()) {
            for (String env : comparison.environments()) {
                RunStatistics runs = comparison.acrossRuns(env, label, figure);
                if (runs.runs() > 0) {
                    runsByLabel
                            .computeIfAbsent(label, l -> new LinkedHashMap<>())
                            .put(env, runs);
                    largest = Math.max(largest, runs.values()[(int) runs.runs() - 1]);
                }
            }
        }
        Quantity.Scale scale = scaleForLargest.apply(largest);
        MedianOfRunsDataset data = new MedianOfRunsDataset();
        RunCounts counts = new RunCounts();
        runsByLabel.forEach((label, byEnv) -> byEnv.forEach((env, runs) -> {
            RunStatistics.MedianInterval ci = runs.medianCi95();
            double[] values = runs.values();
            double low = ci.available() ? ci.low() : values[0];
            double high = ci.available() ? ci.high() : values[values.length - 1];
            data.add(env, label, scale.shown(runs.median()), scale.shown(low), scale.shown(high));
            counts.add(runs.runs(), ci.available());
        }));
        PlotOrientation orientation =
                runsByLabel.size() > MOST_LABELS_UNDER_BARS ? PlotOrientation.HORIZONTAL : PlotOrientation.VERTICAL;
        JFreeChart chart = ChartFactory.createBarChart(title, null, scale.name(), data, orientation, true, true, false);
        CategoryPlot plot = (CategoryPlot) chart.getPlot();
        WhiskerBarRenderer renderer = new WhiskerBarRenderer();
        renderer.setDefaultToolTipGenerator(new IntervalCategoryToolTipGenerator(
                "{0}, {1}: {2} " + scale.name() + " (whisker {3} to {4})", new SiNumberFormat()));
        plot.setRenderer(renderer);
        ChartStyle.flat(chart);
        chart.addSubtitle(subtitle(counts.description()));
        categoryStyle(plot, data);
        return chart;
    }

    /** The runs behind a bar chart's bars, said in its subtitle. */
    private static final class RunCounts {
        private long fewest = Long.MAX_VALUE;
        private long most;
        private int withInterval;
        private int withSpread;

        void add(long runs, boolean intervalAvailable) {
            fewest = Math.min(fewest, runs);
            most = Math.max(most, runs);
            if (intervalAvailable) {
                withInterval++;
            } else if (runs > 1) {
                withSpread++;
            }
        }

        String description() {
            if (most == 0) {
                return "no runs";
            }
            if (most == 1) {
                return "one run per environment: no whiskers (repeat runs to see their spread)";
            }
            String bars = "bars: median of " + (fewest == most ? most : fewest + "–" + most) + " runs; whiskers: ";
            String spread = "lowest to highest run (a 95% interval needs " + RunStatistics.runsNeededForMedianInterval()
                    + " runs)";
            if (withSpread == 0) {
                return bars + "95% confidence interval of the median";
            }
            return withInterval == 0 ? bars + spread : bars + "95% interval of the median, or " + spread;
        }
    }

    /**
     * Bars of figures measured outside JMeter (e.g. psql's times), from a {@link MedianOfRunsDataset} already in the
     * axis' unit: the median of runs per environment (its palette colour) and label, the whisker its interval;
     * {@code whiskers} says in the subtitle what the whiskers are.
     */
    public static JFreeChart medianBars(
            String title, String axisLabel, MedianOfRunsDataset data, String whiskers, EnvironmentPalette palette) {
        JFreeChart chart = ChartFactory.createBarChart(
                title,
                null,
                axisLabel,
                data,
                data.getColumnCount() > MOST_LABELS_UNDER_BARS ? PlotOrientation.HORIZONTAL : PlotOrientation.VERTICAL,
                true,
                true,
                false);
        CategoryPlot plot = (CategoryPlot) chart.getPlot();
        WhiskerBarRenderer renderer = new WhiskerBarRenderer();
        renderer.setDefaultToolTipGenerator(new IntervalCategoryToolTipGenerator(
                "{0}, {1}: {2} " + axisLabel + " (whisker {3} to {4})", new SiNumberFormat()));
        plot.setRenderer(renderer);
        ChartStyle.flat(chart);
        chart.addSubtitle(subtitle("bars: median of runs; whiskers: " + whiskers));
        categoryStyle(plot, data, palette);
        return chart;
    }

    /**
     * Bars of each environment's figure against the baseline's, per label: 100 x median of runs / baseline's median of
     * runs (no whisker: a ratio of medians has no distribution-free interval from a handful of runs).
     */
    public JFreeChart relative(String title, ToDoubleFunction<SampleStatistics> figure, boolean logScale) {
        // each bar with the ratio's 95% interval from the runs (the score table's), where there are runs enough
        MedianOfRunsDataset d = new MedianOfRunsDataset();
        boolean anyInterval = false;
        for (String label : comparison.rows()) {
            RunStatistics baseRuns = comparison.acrossRuns(baseline, label, figure);
            double base = baseRuns.median();
            if (!(base > 0)) {
                continue;
            }
            for (String env : comparison.environments()) {
                RunStatistics runs = comparison.acrossRuns(env, label, figure);
                double median = runs.median();
                if (Double.isNaN(median)) {
                    continue;
                }
                double percent = 100 * median / base;
                RatioOfRuns r = env.equals(baseline) ? null : RatioOfRuns.of(runs, baseRuns);
                if (r != null && r.available()) {
                    d.add(env, label, percent, 100 * r.low(), 100 * r.high());
                    anyInterval = true;
                } else {
                    d.add(env, label, percent, percent, percent);
                }
            }
        }
        JFreeChart chart = relativeBars(title, baseline, d, logScale, palette);
        if (anyInterval) {
            chart.addSubtitle(subtitle("whiskers: the ratio's 95% interval from the runs (as the score table)"));
        }
        return chart;
    }

    /**
     * Bars of figures as percentages of a baseline's (baseline = 100), one series per environment (the dataset's rows, in
     * their palette colour) per label (its columns), in linear or log scale, each bar's value written on it: the chart
     * of {@link #relative} for any figures, e.g. bonnie++'s.
     */
    public static JFreeChart relativeBars(
            String title, String baseline, CategoryDataset d, boolean logScale, EnvironmentPalette palette) {
        String axisLabel = "% of " + baseline + " (" + baseline + " = 100)";
        JFreeChart chart = ChartFactory.createBarChart(
                title,
                null,
                axisLabel,
                d,
                d.getColumnCount() > MOST_LABELS_UNDER_BARS ? PlotOrientation.HORIZONTAL : PlotOrientation.VERTICAL,
                true,
                true,
                false);
        CategoryPlot plot = (CategoryPlot) chart.getPlot();
        if (d instanceof IntervalCategoryDataset) { // each bar's interval as a whisker
            plot.setRenderer(new WhiskerBarRenderer());
        }
        if (logScale) {
            plot.setRangeAxis(logAxis(axisLabel + ", log scale", d));
            // every bar from the axis' foot, the baseline's too (from 100 it had no height); the line at 100 is the
            // baseline
            ((BarRenderer) plot.getRenderer()).setBase(plot.getRangeAxis().getLowerBound());
        }
        plot.addRangeMarker(new ValueMarker(BASELINE_PERCENT, ChartStyle.AXIS, ChartStyle.SOLID), Layer.FOREGROUND);
        BarRenderer renderer = (BarRenderer) plot.getRenderer();
        renderer.setDefaultToolTipGenerator(
                d instanceof IntervalCategoryDataset
                        ? new IntervalCategoryToolTipGenerator(
                                "{0}, {1}: {2} % of " + baseline + " (interval {3} to {4})", new SiNumberFormat())
                        : new StandardCategoryToolTipGenerator("{0}, {1}: {2} % of " + baseline, new SiNumberFormat()));
        // each bar's figure on it: a log axis labels its decades only
        renderer.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", new DecimalFormat("0")));
        renderer.setDefaultItemLabelsVisible(true);
        boolean upright = plot.getOrientation() == PlotOrientation.VERTICAL
                && d.getRowCount() * d.getColumnCount() > MOST_BARS_WITH_FLAT_FIGURES;
        if (upright) { // side by side the figures of narrow bars would overlap (7 environments x 6 labels: study 001
            // (docs/studies.md#study-001))
            renderer.setDefaultPositiveItemLabelPosition(new ItemLabelPosition(
                    ItemLabelAnchor.OUTSIDE12, TextAnchor.CENTER_LEFT, TextAnchor.CENTER_LEFT, -Math.PI / 2));
            renderer.setDefaultNegativeItemLabelPosition(new ItemLabelPosition(
                    ItemLabelAnchor.OUTSIDE6, TextAnchor.CENTER_RIGHT, TextAnchor.CENTER_RIGHT, -Math.PI / 2));
        }
        ChartStyle.flat(chart);
        renderer.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, ChartStyle.TICK_FONT_PX - 2));
        plot.getRangeAxis().setUpperMargin(upright ? 0.16 : 0.12);
        chart.addSubtitle(subtitle("bars: median of runs against " + baseline + "'s median of runs"));
        categoryStyle(plot, d, palette);
        return chart;
    }

    /**
     * A log axis over the dataset's values and 100, with a tick label at every tick (79, 100, 126, ...), not at the
     * decades only: ratios near 1 would otherwise show one label, "100".
     */
    private static LogAxis logAxis(String label, CategoryDataset d) {
        double low = BASELINE_PERCENT;
        double high = BASELINE_PERCENT;
        for (int r = 0; r < d.getRowCount(); r++) {
            for (int c = 0; c < d.getColumnCount(); c++) {
                Number v = d.getValue(r, c);
                if (v != null && v.doubleValue() > 0) {
                    low = Math.min(low, v.doubleValue());
                    high = Math.max(high, v.doubleValue());
                }
            }
        }
        LogAxis axis = new LogAxis(label);
        axis.setBase(10);
        axis.setSmallestValue(1e-3);
        // room below the smallest bar (so it has a height) and above the largest (for its figure)
        axis.setRange(low / LOG_AXIS_MARGIN, high * LOG_AXIS_MARGIN);
        axis.setNumberFormatOverride(new SiNumberFormat(1));
        axis.setMinorTickMarksVisible(true);
        return axis;
    }

    /** How far a log axis reaches beyond the smallest and largest bar, as a factor. */
    private static final double LOG_AXIS_MARGIN = 1.3;

    /**
     * Per second since each environment's first sample: mean response time (in ms) or throughput (runs overlaid,
     * so divided by the runs).
     *
     * @param unit the value axis's unit: ms for response times, e.g. requests/s for throughput
     */
    public JFreeChart overTime(String title, String unit, boolean responseTime) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (String env : comparison.environments()) {
            XYSeries s = new XYSeries(env);
            int runs = Math.max(1, comparison.runs(env).size());
            TreeMap<Long, long[]> t = comparison.timeline(env);
            t.forEach((sec, v) -> s.add((double) sec, responseTime ? (double) v[1] / v[0] : (double) v[0] / runs));
            data.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(
                title,
                "seconds since the environment's first sample",
                unit,
                data,
                PlotOrientation.VERTICAL,
                true,
                true,
                false);
        lines(chart, (XYPlot) chart.getPlot());
        wholeSeconds((XYPlot) chart.getPlot());
        return chart;
    }

    /**
     * Several runs' readings pooled (each run's time from its own start) as one line: the mean of the readings in
     * each whole second, so the runs' lines do not zigzag over each other.
     */
    static List<double[]> meanPerSecond(List<double[]> points) {
        TreeMap<Long, double[]> bySecond = new TreeMap<>();
        for (double[] p : points) {
            double[] sumAndCount = bySecond.computeIfAbsent((long) Math.floor(p[0]), k -> new double[2]);
            sumAndCount[0] += p[1];
            sumAndCount[1]++;
        }
        List<double[]> mean = new ArrayList<>();
        bySecond.forEach((second, v) -> mean.add(new double[] {second, v[0] / v[1]}));
        return mean;
    }

    /**
     * Host CPU and the target's CPU over time per environment, from the Resource Monitor's metrics file, counted one
     * way ({@link #CPU_AXIS}): the host's share of the whole machine is converted to cores by its core count (the
     * file's per-core columns), so a 2-core host fully busy reads 200. Host lines are solid, target lines dashed, in
     * their environment's colour. A host without per-core columns is left out, and the subtitle says so.
     * Several runs pool as the mean of each second.
     */
    public JFreeChart cpuOverTime(MetricsFile metrics) {
        XYSeriesCollection data = new XYSeriesCollection();
        List<String> hostsLeftOut = new ArrayList<>();
        for (String env : comparison.environments()) {
            long cores = metrics.metrics(env).stream()
                    .filter(m -> PER_CORE_CPU_METRIC.matcher(m).matches())
                    .count();
            List<double[]> host = metrics.over(env, HOST_CPU_METRIC);
            if (cores > 0 && !host.isEmpty()) {
                XYSeries s = new XYSeries(new CpuSeriesKey(env, CpuSeriesKey.HOST));
                meanPerSecond(host).forEach(p -> s.add(p[0], p[1] * cores));
                data.addSeries(s);
            } else if (!host.isEmpty()) {
                hostsLeftOut.add(env);
            }
            List<double[]> target = metrics.over(env, TARGET_CPU_METRIC);
            if (!target.isEmpty()) {
                XYSeries s = new XYSeries(new CpuSeriesKey(env, CpuSeriesKey.TARGET));
                meanPerSecond(target).forEach(p -> s.add(p[0], p[1]));
                data.addSeries(s);
            }
        }
        JFreeChart chart = ChartFactory.createXYLineChart(
                "CPU over time — " + LOWER_IS_BETTER + " at the same load",
                "seconds since the environment's first reading",
                CPU_AXIS,
                data,
                PlotOrientation.VERTICAL,
                true,
                true,
                false);
        XYPlot plot = (XYPlot) chart.getPlot();
        ChartStyle.flat(chart);
        colourLines(
                plot,
                key -> ((CpuSeriesKey) key).environment(),
                key -> ((CpuSeriesKey) key).whose().equals(CpuSeriesKey.TARGET) ? ChartStyle.DASHED : ChartStyle.SOLID);
        wholeSeconds(plot);
        plot.setFixedLegendItems(cpuLegend());
        String subtitle = "solid: the whole host, all its cores; dashed: the target (its container or process tree); "
                + "each second the mean of the runs";
        chart.addSubtitle(subtitle(
                hostsLeftOut.isEmpty()
                        ? subtitle
                        : subtitle + "; host CPU of " + String.join(", ", hostsLeftOut)
                                + " not shown: no per-core columns to count its cores"));
        return chart;
    }

    /** One entry per environment colour, and one per line style. */
    private LegendItemCollection cpuLegend() {
        LegendItemCollection items = new LegendItemCollection();
        Shape line = new Line2D.Double(-12, 0, 12, 0);
        for (String env : comparison.environments()) {
            items.add(new LegendItem(env, null, null, null, LEGEND_SQUARE, palette.colour(env)));
        }
        items.add(new LegendItem(
                CpuSeriesKey.HOST,
                null,
                null,
                null,
                false,
                LEGEND_SQUARE,
                false,
                ChartStyle.AXIS,
                false,
                ChartStyle.AXIS,
                ChartStyle.SOLID,
                true,
                line,
                ChartStyle.SOLID,
                ChartStyle.TEXT));
        items.add(new LegendItem(
                CpuSeriesKey.TARGET,
                null,
                null,
                null,
                false,
                LEGEND_SQUARE,
                false,
                ChartStyle.AXIS,
                false,
                ChartStyle.AXIS,
                ChartStyle.SOLID,
                true,
                line,
                ChartStyle.DASHED,
                ChartStyle.TEXT));
        return items;
    }

    /** A line of the CPU chart: whose CPU (the host's or the target's) of which environment, e.g. "bare (target)". */
    record CpuSeriesKey(String environment, String whose) implements Comparable<CpuSeriesKey> {
        static final String HOST = "host";
        static final String TARGET = "target";

        @Override
        public int compareTo(CpuSeriesKey o) {
            return toString().compareTo(o.toString());
        }

        @Override
        public String toString() {
            return environment + " (" + whose + ")";
        }
    }

    /** Response time at each percentile (HTML report estimation), one line per environment. */
    public JFreeChart percentiles(String label) {
        XYSeriesCollection data = new XYSeriesCollection();
        double largestMs = 0;
        for (String env : comparison.environments()) {
            SampleStatistics s = comparison.get(env, label);
            if (s != null) {
                largestMs = Math.max(largestMs, s.maxMs());
            }
        }
        Quantity.Scale scale = Quantity.MILLISECONDS.scaleFor(largestMs);
        for (String env : comparison.environments()) {
            SampleStatistics s = comparison.get(env, label);
            if (s == null) {
                continue;
            }
            XYSeries series = new XYSeries(env);
            for (double p : PERCENTILE_POINTS) {
                series.add(p, scale.shown(s.percentileMs(p)));
            }
            data.addSeries(series);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(
                "Response time percentiles (" + label + ") — " + LOWER_IS_BETTER,
                "percentile",
                scale.name(),
                data,
                PlotOrientation.VERTICAL,
                true,
                true,
                false);
        lines(chart, (XYPlot) chart.getPlot());
        return chart;
    }

    private static final List<Double> PERCENTILE_POINTS = Stream.concat(
                    IntStream.rangeClosed(1, 100).mapToObj(i -> (double) i), Stream.of(99.5, 99.9))
            .sorted()
            .toList();

    private static TextTitle subtitle(String text) {
        TextTitle t = new TextTitle(text, new Font(Font.SANS_SERIF, Font.PLAIN, ChartStyle.TICK_FONT_PX));
        t.setPaint(ChartStyle.TEXT);
        return t;
    }

    /** Environment colours on the bars; labels wrapped (full text in their tooltip) rather than cut. */
    private void categoryStyle(CategoryPlot plot, CategoryDataset data) {
        categoryStyle(plot, data, palette);
    }

    private static void categoryStyle(CategoryPlot plot, CategoryDataset data, EnvironmentPalette palette) {
        BarRenderer renderer = (BarRenderer) plot.getRenderer();
        renderer.setItemMargin(0.05);
        renderer.setDrawBarOutline(false);
        renderer.setDefaultLegendShape(LEGEND_SQUARE);
        for (int row = 0; row < data.getRowCount(); row++) {
            renderer.setSeriesPaint(row, palette.colour((String) data.getRowKey(row)));
        }
        CategoryAxis axis = plot.getDomainAxis();
        axis.setCategoryLabelPositions(CategoryLabelPositions.STANDARD);
        axis.setMaximumCategoryLabelLines(CATEGORY_LABEL_LINES);
        axis.setCategoryMargin(0.15);
        for (Object label : data.getColumnKeys()) {
            axis.addCategoryLabelToolTip((String) label, (String) label);
        }
    }

    /** A time axis of whole seconds from 0: no tick at 0.5 s or -2 s. */
    private static void wholeSeconds(XYPlot plot) {
        NumberAxis time = (NumberAxis) plot.getDomainAxis();
        time.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        time.setNumberFormatOverride(new SiNumberFormat());
        time.setLowerMargin(0);
        time.setAutoRangeIncludesZero(true);
    }

    private void lines(JFreeChart chart, XYPlot plot) {
        ChartStyle.flat(chart);
        colourLines(plot, key -> (String) key, key -> ChartStyle.SOLID);
    }

    /** One line per series, in the colour of the environment it is of. */
    private void colourLines(
            XYPlot plot,
            Function<Comparable<?>, String> environmentOfSeries,
            Function<Comparable<?>, Stroke> strokeOfSeries) {
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        r.setDrawSeriesLineAsPath(true);
        XYDataset data = plot.getDataset();
        for (int i = 0; i < data.getSeriesCount(); i++) {
            Comparable<?> key = data.getSeriesKey(i);
            r.setSeriesPaint(i, palette.colour(environmentOfSeries.apply(key)));
            r.setSeriesStroke(i, strokeOfSeries.apply(key));
        }
        plot.setRenderer(r);
    }
}
