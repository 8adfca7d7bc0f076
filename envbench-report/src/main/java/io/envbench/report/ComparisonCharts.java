package io.envbench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import io.envbench.stats.Comparison;
import io.envbench.stats.SampleStatistics;

/**
 * The charts of a comparison, as JFreeChart objects (shown in the GUI, exported by {@link ChartFormat}).
 * Bars follow our Redmine study (90% line: lower is better; throughput, KB/s: higher is better) and
 * the bonnie++ study (relative to the baseline = 100, optional log scale).
 */
public final class ComparisonCharts {
    private final Comparison c;
    private final String baseline;

    public ComparisonCharts(Comparison c, String baseline) {
        this.c = c;
        this.baseline = baseline;
    }

    /** Every chart by file name (without extension). */
    public Map<String, JFreeChart> all() {
        Map<String, JFreeChart> m = new LinkedHashMap<>();
        m.put("p90", bars("90% line by label (ms, Aggregate Report) — lower is better", "ms", SampleStatistics::aggregateReport90Ms));
        m.put("throughput", bars("Throughput by label (requests/s) — higher is better", "requests/s", SampleStatistics::throughputPerSec));
        m.put("received-kbps", bars("Received KB/s by label — higher is better", "KB/s", SampleStatistics::receivedKBytesPerSec));
        m.put("relative-throughput", relative("Throughput relative to " + baseline + " = 100", SampleStatistics::throughputPerSec, false));
        m.put("relative-throughput-log", relative("Throughput relative to " + baseline + " = 100 (log scale)", SampleStatistics::throughputPerSec, true));
        m.put("response-time-over-time", overTime("Mean response time over time", "ms", true));
        m.put("throughput-over-time", overTime("Throughput over time", "requests/s", false));
        m.put("percentiles", percentiles(Comparison.TOTAL));
        return m;
    }

    public JFreeChart bars(String title, String unit, ToDoubleFunction<SampleStatistics> figure) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        for (String label : c.rows()) {
            for (String env : c.environments()) {
                SampleStatistics s = c.get(env, label);
                if (s != null) {
                    d.addValue(figure.applyAsDouble(s), env, label);
                }
            }
        }
        JFreeChart chart = ChartFactory.createBarChart(title, "label", unit, d, PlotOrientation.VERTICAL, true, true, false);
        style(chart);
        return chart;
    }

    public JFreeChart relative(String title, ToDoubleFunction<SampleStatistics> figure, boolean logScale) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        for (String label : c.rows()) {
            SampleStatistics base = c.get(baseline, label);
            if (base == null || figure.applyAsDouble(base) == 0) {
                continue;
            }
            for (String env : c.environments()) {
                SampleStatistics s = c.get(env, label);
                if (s != null) {
                    d.addValue(100.0 * figure.applyAsDouble(s) / figure.applyAsDouble(base), env, label);
                }
            }
        }
        JFreeChart chart = ChartFactory.createBarChart(title, "label", baseline + " = 100", d, PlotOrientation.VERTICAL, true, true, false);
        if (logScale) {
            LogarithmicAxis axis = new LogarithmicAxis(baseline + " = 100 (log)");
            axis.setAllowNegativesFlag(false);
            axis.setStrictValuesFlag(false);
            ((CategoryPlot) chart.getPlot()).setRangeAxis(axis);
        }
        style(chart);
        return chart;
    }

    public JFreeChart overTime(String title, String unit, boolean responseTime) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (String env : c.environments()) {
            XYSeries s = new XYSeries(env);
            int runs = Math.max(1, c.runs(env).size());
            TreeMap<Long, long[]> t = c.timeline(env);
            t.forEach((sec, v) -> s.add((double) sec, responseTime ? (double) v[1] / v[0] : (double) v[0] / runs));
            data.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(title, "seconds since the environment's first sample", unit, data,
                PlotOrientation.VERTICAL, true, true, false);
        lines(chart);
        return chart;
    }

    /** Host CPU and the target's CPU over time per environment, from the Resource Monitor's metrics file. */
    public JFreeChart cpuOverTime(io.envbench.metrics.MetricsFile metrics) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (String env : c.environments()) {
            for (String[] m : new String[][] {{"host.cpu.pct", "host CPU %"}, {"target.cpu.pct", "target CPU % (100 = one core)"}}) {
                List<double[]> points = metrics.over(env, m[0]);
                if (points.isEmpty()) {
                    continue;
                }
                XYSeries s = new XYSeries(env + ": " + m[1]);
                points.forEach(p -> s.add(p[0], p[1]));
                data.addSeries(s);
            }
        }
        JFreeChart chart = ChartFactory.createXYLineChart("CPU over time", "seconds since the environment's first reading", "%",
                data, PlotOrientation.VERTICAL, true, true, false);
        lines(chart);
        return chart;
    }

    /** Response time at each percentile (HTML report estimation), one line per environment. */
    public JFreeChart percentiles(String label) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (String env : c.environments()) {
            SampleStatistics s = c.get(env, label);
            if (s == null) {
                continue;
            }
            XYSeries series = new XYSeries(env);
            for (double p : PERCENTILE_POINTS) {
                series.add(p, s.percentileMs(p));
            }
            data.addSeries(series);
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Response time percentiles (" + label + ")", "percentile", "ms", data,
                PlotOrientation.VERTICAL, true, true, false);
        lines(chart);
        return chart;
    }

    private static final List<Double> PERCENTILE_POINTS = java.util.stream.Stream.concat(
            java.util.stream.IntStream.rangeClosed(1, 100).mapToObj(i -> (double) i), java.util.stream.Stream.of(99.5, 99.9))
            .sorted().toList();

    private static void style(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        CategoryPlot plot = (CategoryPlot) chart.getPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.getDomainAxis().setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        plot.getDomainAxis().setMaximumCategoryLabelWidthRatio(0.6f);
    }

    private static void lines(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        XYPlot plot = (XYPlot) chart.getPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        for (int i = 0; i < plot.getDataset().getSeriesCount(); i++) {
            r.setSeriesStroke(i, new BasicStroke(1.6f));
        }
        plot.setRenderer(r);
    }
}
