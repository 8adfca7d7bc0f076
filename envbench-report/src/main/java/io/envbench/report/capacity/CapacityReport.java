package io.envbench.report.capacity;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.envbench.report.ChartFormat;
import io.envbench.report.ChartStyle;
import io.envbench.report.ComparisonReport;
import io.envbench.study.runner.CapacitySearch;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * A capacity search as a chart: the rate asked of each step against the rate achieved (left axis: a step that kept its
 * rate sits on the diagonal) and its 90% line (right axis): the knee is where the achieved rate leaves the diagonal or
 * the latency climbs; with several searches, the range another search is expected in is shaded. Written as
 * {@code ENV-knee.png|svg|pdf}.
 */
public final class CapacityReport {
    private CapacityReport() {}

    public static JFreeChart chart(CapacitySearch.Result r) {
        List<CapacitySearch.Step> steps = new ArrayList<>(r.steps());
        steps.sort(Comparator.comparingDouble(CapacitySearch.Step::askedPerSec));
        XYSeries asked = new XYSeries("asked (the diagonal)");
        XYSeries achieved = new XYSeries("achieved /s");
        XYSeries p90 = new XYSeries("90% line ms");
        for (CapacitySearch.Step s : steps) {
            asked.add(s.askedPerSec(), s.askedPerSec());
            if (s.stats().count() > 0) {
                achieved.add(s.askedPerSec(), s.achievedPerSec());
                p90.add(s.askedPerSec(), s.stats().percentileMs(90));
            }
        }
        XYSeriesCollection rates = new XYSeriesCollection();
        rates.addSeries(achieved);
        rates.addSeries(asked);
        JFreeChart chart = ChartFactory.createXYLineChart(
                r.environment() + ": rate asked vs achieved and 90% line (capacity "
                        + (Double.isNaN(r.capacity()) ? "none" : Math.round(r.capacity()) + "/s") + ")",
                "rate asked /s",
                "rate achieved /s",
                rates,
                PlotOrientation.VERTICAL,
                true,
                false,
                false);
        XYPlot plot = (XYPlot) chart.getPlot();
        XYLineAndShapeRenderer rateLines = new XYLineAndShapeRenderer(true, true);
        rateLines.setSeriesStroke(0, ChartStyle.SOLID);
        rateLines.setSeriesStroke(1, ChartStyle.DASHED);
        plot.setRenderer(0, rateLines);
        NumberAxis ms = new NumberAxis("90% line ms");
        plot.setRangeAxis(1, ms);
        plot.setDataset(1, new XYSeriesCollection(p90));
        plot.mapDatasetToRangeAxis(1, 1);
        XYLineAndShapeRenderer latency = new XYLineAndShapeRenderer(true, true);
        latency.setSeriesStroke(0, ChartStyle.SOLID);
        plot.setRenderer(1, latency);
        r.spread()
                .ifPresent(
                        sp -> { // where another search's capacity is expected: shaded, under the lines
                            IntervalMarker expected = new IntervalMarker(sp.lowPerSec(), sp.highPerSec());
                            expected.setPaint(new Color(0, 0, 0, 24));
                            expected.setLabel("another search expected here ("
                                    + r.searches().size() + " searches)");
                            expected.setLabelAnchor(RectangleAnchor.TOP_LEFT);
                            expected.setLabelTextAnchor(TextAnchor.TOP_LEFT);
                            plot.addDomainMarker(expected, Layer.BACKGROUND);
                        });
        return ChartStyle.flat(chart);
    }

    /**
     * Writes the chart beside a search's steps and says where, or what kept it from being written (a full disk): the
     * line a run's log gets, the search itself being on record either way.
     */
    public static String writeAndSay(CapacitySearch.Result r, Path dir) {
        try {
            return "knee chart: " + write(r, dir).get(0);
        } catch (IOException | RuntimeException e) {
            return "the knee chart of " + r.environment() + " could not be written into " + dir + ": " + e.getMessage();
        }
    }

    /** Writes the chart in every format into {@code dir}; returns the files. */
    public static List<Path> write(CapacitySearch.Result r, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        JFreeChart chart = chart(r);
        for (ChartFormat f : ChartFormat.values()) {
            Path file = dir.resolve(r.environment() + "-knee." + f.extension());
            f.write(chart, file, ComparisonReport.CHART_WIDTH, ComparisonReport.CHART_HEIGHT);
            written.add(file);
        }
        return written;
    }
}
