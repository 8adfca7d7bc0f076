package io.envbench.report.tenants;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.Metrics;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.JtlReader;
import io.envbench.report.ChartStyle;
import io.envbench.report.ComparisonCharts;
import io.envbench.report.EnvironmentPalette;
import io.envbench.report.SiNumberFormat;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.Range;
import org.jfree.data.general.DatasetUtils;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The charts of one multi-tenant run over its own time (seconds since the run started): each tenant's container CPU
 * (and the host's) from the run's metrics file, and each tenant's throughput from its JTL, with the CPU controller's
 * actions drawn over them ({@link ControlMarkers}) and the warm-up shaded, so a reader sees which action came before
 * which change. Tenants keep their colours of the per-tenant charts ({@link EnvironmentPalette}, tenant-1 .. tenant-N).
 */
public final class TenantRunCharts {
    private static final Pattern PER_CORE_CPU = MetricName.Family.CORE.any("pct");
    private static final Color WARMUP = new Color(0xEEEEEE);
    private static final Color HOST = new Color(0x999999);

    private final String runId;
    private final List<String> tenants;
    private final Instant zero;
    private final Optional<Instant> warmupEnd;
    private final List<ControlMarkers.Marker> markers;
    private final EnvironmentPalette palette;

    /**
     * @param runId     e.g. {@code static-r1}: names the charts
     * @param tenants   tenant-1 .. tenant-N
     * @param zero      the run's start: the time axis counts from it
     * @param warmupEnd the end of the run's warm-up (its first sample + the warm-up), when it had samples: shaded before
     * @param markers   the run's control actions ({@link ControlMarkers#of})
     */
    public TenantRunCharts(
            String runId,
            List<String> tenants,
            Instant zero,
            Optional<Instant> warmupEnd,
            List<ControlMarkers.Marker> markers) {
        this.runId = runId;
        this.tenants = List.copyOf(tenants);
        this.zero = zero;
        this.warmupEnd = warmupEnd;
        this.markers = List.copyOf(markers);
        this.palette = EnvironmentPalette.of(tenants);
    }

    /** Each tenant's container CPU ({@code container.tenant-N.cpu.pct}) and the host's, one core = 100, from a run's metrics file. */
    public JFreeChart cpu(Path metricsFile) throws IOException {
        Map<String, XYSeries> series = new LinkedHashMap<>();
        tenants.forEach(t -> series.put(t, new XYSeries(t, true, false)));
        XYSeries host = new XYSeries("host (all cores)", true, false);
        long[] cores = {-1};
        MetricsFile.forEachRow(metricsFile, row -> {
            double x = (row.epochMs() - zero.toEpochMilli()) / 1000.0;
            if (cores[0] < 0) {
                cores[0] = row.values().keySet().stream()
                        .filter(k -> PER_CORE_CPU.matcher(k).matches())
                        .count();
            }
            for (String t : tenants) {
                Double v = row.values().get(Metrics.containerColumns(t).cpuPct());
                if (v != null) {
                    series.get(t).addOrUpdate(x, v.doubleValue());
                }
            }
            Double h = row.values().get(MetricName.HOST_CPU.column());
            if (h != null && cores[0] > 0) {
                host.addOrUpdate(x, h.doubleValue() * cores[0]);
            }
        });
        XYSeriesCollection data = new XYSeriesCollection();
        series.values().forEach(data::addSeries);
        if (!host.isEmpty()) {
            data.addSeries(host);
        }
        return chart(
                "CPU per tenant, " + runId + " — " + ComparisonCharts.LOWER_IS_BETTER, ComparisonCharts.CPU_AXIS, data);
    }

    /** Each tenant's requests per second (samples by the second they ended in), from the run's JTL. */
    public JFreeChart throughput(Path jtl) throws IOException {
        Map<String, TreeMap<Long, Integer>> perSecond = new LinkedHashMap<>();
        tenants.forEach(t -> perSecond.put(t, new TreeMap<>()));
        JtlReader.read(jtl, s -> {
            TreeMap<Long, Integer> m = perSecond.get(s.environment());
            if (m != null) {
                m.merge(Math.floorDiv(s.startMs() + s.elapsedMs() - zero.toEpochMilli(), 1000L), 1, Integer::sum);
            }
        });
        XYSeriesCollection data = new XYSeriesCollection();
        perSecond.forEach((t, m) -> {
            XYSeries s = new XYSeries(t, true, false);
            if (!m.isEmpty()) {
                // the last second may still have been filling when the load stopped: left out
                m.headMap(m.lastKey()).forEach((sec, n) -> s.add((double) sec, (double) n));
            }
            data.addSeries(s);
        });
        return chart("Throughput per tenant, " + runId + " — " + ComparisonCharts.HIGHER_IS_BETTER, "requests/s", data);
    }

    private JFreeChart chart(String title, String unit, XYSeriesCollection data) {
        JFreeChart chart = ChartFactory.createXYLineChart(
                title, "seconds since the run started", unit, data, PlotOrientation.VERTICAL, true, true, false);
        ChartStyle.flat(chart);
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        r.setDrawSeriesLineAsPath(true);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            String key = (String) data.getSeriesKey(i);
            boolean tenant = tenants.contains(key);
            r.setSeriesPaint(i, tenant ? palette.colour(key) : HOST);
            r.setSeriesStroke(i, tenant ? ChartStyle.SOLID : ChartStyle.DASHED);
        }
        plot.setRenderer(r);
        NumberAxis time = (NumberAxis) plot.getDomainAxis();
        time.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        time.setNumberFormatOverride(new SiNumberFormat());
        time.setAutoRangeIncludesZero(true);
        time.setLowerMargin(0);
        warmupEnd.ifPresent(end -> {
            double s = Duration.between(zero, end).toMillis() / 1000.0;
            if (s > 0) {
                IntervalMarker w = new IntervalMarker(0, s, WARMUP);
                w.setLabel("start-up and warm-up");
                w.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, ChartStyle.TICK_FONT_PX - 4));
                w.setLabelPaint(ChartStyle.AXIS);
                w.setLabelBackgroundColor(ControlMarkers.LABEL_BACKGROUND);
                w.setLabelAnchor(RectangleAnchor.BOTTOM_LEFT);
                w.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
                plot.addDomainMarker(w, Layer.BACKGROUND);
            }
        });
        ControlMarkers.draw(plot, markers);
        // every action on the chart, also one after the last reading (the restore when the load ends)
        Range readings = DatasetUtils.findDomainBounds(data);
        double last = Math.max(
                readings == null ? 0 : readings.getUpperBound(),
                markers.stream()
                        .mapToDouble(ControlMarkers.Marker::seconds)
                        .max()
                        .orElse(0));
        if (last > 0) {
            time.setRange(0, last * 1.02 + 1);
        }
        chart.addSubtitle(new TextTitle(
                "dashed lines: the CPU control's actions (" + markers.size() + "), labelled t1 = tenant-1; "
                        + "shaded: before the figures start",
                new Font(Font.SANS_SERIF, Font.PLAIN, ChartStyle.TICK_FONT_PX - 2)));
        return chart;
    }

    /** Whether a run left what these charts need. */
    static boolean drawable(Path file) {
        return Files.isRegularFile(file);
    }
}
