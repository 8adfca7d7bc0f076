package io.envbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Paint;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;

import io.envbench.measure.metrics.MetricsCsvWriter;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.Sample;
import io.envbench.measure.stats.Comparison;
import io.envbench.measure.stats.RatioOfRuns;
import io.envbench.measure.stats.RunStatistics;
import io.envbench.measure.stats.SampleStatistics;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.xy.XYDataset;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Charts a report can take: one colour per environment, whiskers from runs, units without exponents, one CPU count per axis. */
class ComparisonChartsTest {
    static final List<String> ENVIRONMENTS = List.of("bare", "docker-bridge", "docker-host");
    static final List<String> REVERSED = List.of("docker-host", "docker-bridge", "bare");
    static final String LONG_LABEL =
            "GET /api/v1/catalogue/products?category=garden-furniture&page=2&sort=price-descending";
    static final List<String> LABELS = List.of("GET /", LONG_LABEL, "POST /checkout");
    /** Per sample, so that received bytes/s reach the gigabytes (3,000 samples a run at about 2.5 ms apart). */
    static final long RECEIVED_BYTES_PER_SAMPLE = 7_000_000;
    /** Where the sample charts are left to look at. */
    static final Path SAMPLES = Path.of("target", "chart-samples");

    @TempDir
    Path dir;

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    /** runs x three environments x three labels; docker-bridge slower; each run paced a little differently. */
    static Comparison comparison(int runs) {
        Comparison c = new Comparison();
        Random r = new Random(11);
        for (int n = 1; n <= runs; n++) {
            String run = "run" + n;
            for (String env : ENVIRONMENTS) {
                long t = 1_000_000;
                int slowdown = env.equals("docker-bridge") ? 4 : 0;
                for (int i = 0; i < 3000; i++) {
                    t += 2 + r.nextInt(2) + (slowdown > 0 && i % 3 == 0 ? 1 : 0);
                    String label = LABELS.get(i % LABELS.size());
                    c.add(
                            new Sample(
                                    env,
                                    label,
                                    t,
                                    2 + slowdown + r.nextInt(3 + n),
                                    i % 97 != 0,
                                    RECEIVED_BYTES_PER_SAMPLE,
                                    120),
                            run);
                }
            }
        }
        return c;
    }

    /** Cores of the host in {@link #metrics}. */
    static final int CORES = 2;

    /**
     * A metrics file as the Resource Monitor writes it: host CPU (machine = 100) with its per-core columns, target CPU
     * (core = 100); docker-bridge busier.
     */
    static MetricsFile metrics(Path dir) throws Exception {
        Path file = dir.resolve("metrics.csv");
        try (MetricsCsvWriter w = new MetricsCsvWriter(file)) {
            long at = 1_700_000_000_000L;
            for (String env : ENVIRONMENTS) {
                double busier = env.equals("docker-bridge") ? 25 : ENVIRONMENTS.indexOf(env) * 3;
                for (int s = 0; s < 30; s++) {
                    at += 1000;
                    double host = 40 + busier + s % 7;
                    w.write(
                            at,
                            env,
                            Map.of(
                                    "host.cpu.pct",
                                    host,
                                    "host.cpu0.pct",
                                    host + 5,
                                    "host.cpu1.pct",
                                    host - 5,
                                    "target.cpu.pct",
                                    60 + busier + 10 * (s % 5)));
                }
            }
        }
        return MetricsFile.read(file);
    }

    static Map<String, JFreeChart> everyChart(ComparisonCharts charts, MetricsFile metrics) {
        Map<String, JFreeChart> all = new LinkedHashMap<>(charts.all());
        all.put("cpu-over-time", charts.cpuOverTime(metrics));
        return all;
    }

    @Test
    void eachEnvironmentHasOneColourInEveryChart() throws Exception {
        ComparisonCharts charts = new ComparisonCharts(comparison(2), "bare");
        Map<String, Set<Paint>> paints = new HashMap<>();
        everyChart(charts, metrics(dir))
                .forEach((name, chart) -> seriesPaints(chart)
                        .forEach((env, paint) -> paints.computeIfAbsent(env, e -> new HashSet<>())
                                .add(paint)));
        assertEquals(Set.copyOf(ENVIRONMENTS), paints.keySet());
        paints.forEach((env, p) -> assertEquals(1, p.size(), env + " has " + p));
        assertEquals(
                ENVIRONMENTS.size(),
                paints.values().stream()
                        .map(p -> p.iterator().next())
                        .distinct()
                        .count(),
                "no two environments share a colour");
        for (String env : ENVIRONMENTS) {
            assertEquals(
                    charts.palette().colour(env), paints.get(env).iterator().next(), env);
        }
    }

    @Test
    void theColourFollowsThePositionInTheExperimentsOrder() {
        EnvironmentPalette palette = EnvironmentPalette.of(ENVIRONMENTS);
        for (int i = 0; i < ENVIRONMENTS.size(); i++) {
            assertEquals(EnvironmentPalette.OKABE_ITO.get(i), palette.colour(ENVIRONMENTS.get(i)));
        }
        EnvironmentPalette reversed = EnvironmentPalette.of(REVERSED);
        assertEquals(palette.colour("bare"), reversed.colour("docker-host"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> palette.colour("vm"));
        assertTrue(e.getMessage().startsWith("environment: 'vm' has no colour; use one of [bare,"), e.getMessage());
    }

    /** A palette given by the caller (the experiment's order) colours the charts, even where results arrived in another order. */
    @Test
    void aGivenPaletteColoursTheCharts() throws Exception {
        EnvironmentPalette experimentOrder = EnvironmentPalette.of(REVERSED);
        ComparisonCharts charts = new ComparisonCharts(comparison(1), null, experimentOrder);
        everyChart(charts, metrics(dir))
                .forEach((name, chart) -> seriesPaints(chart)
                        .forEach((env, paint) -> assertEquals(experimentOrder.colour(env), paint, name + ": " + env)));
    }

    @Test
    void barsOfTwoRunsSpanTheirRunsAndSaySo() {
        Comparison c = comparison(2);
        JFreeChart p90 =
                new ComparisonCharts(c, "bare").bars("90%", Quantity.MILLISECONDS, s -> s.aggregateReport90Ms());
        MedianOfRunsDataset bars = (MedianOfRunsDataset) ((CategoryPlot) p90.getPlot()).getDataset();
        int spread = 0;
        for (String env : ENVIRONMENTS) {
            for (String label : c.rows()) {
                RunStatistics runs = c.acrossRuns(env, label, s -> s.aggregateReport90Ms());
                double[] values = runs.values();
                assertEquals(2, values.length);
                double median = bars.getValue(env, label).doubleValue();
                double low = bars.getStartValue(env, label).doubleValue();
                double high = bars.getEndValue(env, label).doubleValue();
                assertEquals(runs.median(), median, 1e-9, env + " x " + label);
                assertEquals(values[0], low, 1e-9, "lowest run");
                assertEquals(values[1], high, 1e-9, "highest run");
                assertTrue(low <= median && median <= high);
                spread += low < median && median < high ? 1 : 0;
            }
        }
        assertTrue(spread > 0, "the runs differ somewhere, so some whisker has a length");
        String subtitle = subtitles(p90);
        assertTrue(
                subtitle.contains(
                        "bars: median of 2 runs; whiskers: lowest to highest run (a 95% interval needs 6 runs)"),
                subtitle);
    }

    @Test
    void barsOfSixRunsCarryTheMediansConfidenceInterval() {
        Comparison c = comparison(6);
        JFreeChart throughput =
                new ComparisonCharts(c, "bare").bars("throughput", "requests/s", SampleStatistics::throughputPerSec);
        MedianOfRunsDataset bars = (MedianOfRunsDataset) ((CategoryPlot) throughput.getPlot()).getDataset();
        for (String env : ENVIRONMENTS) {
            RunStatistics runs = c.acrossRuns(env, Comparison.TOTAL, SampleStatistics::throughputPerSec);
            RunStatistics.MedianInterval ci = runs.medianCi95();
            assertTrue(ci.available());
            assertEquals(ci.low(), bars.getStartValue(env, Comparison.TOTAL).doubleValue(), 1e-9);
            assertEquals(ci.high(), bars.getEndValue(env, Comparison.TOTAL).doubleValue(), 1e-9);
            assertTrue(ci.low() < runs.median() && runs.median() < ci.high(), "paced differently, the runs differ");
        }
        assertTrue(
                subtitles(throughput)
                        .contains("bars: median of 6 runs; whiskers: 95% confidence interval of the median"),
                subtitles(throughput));
    }

    /** The headline chart: each environment's bar with the ratio's interval of the score table; the baseline's none. */
    @Test
    void theHeadlineChartCarriesTheRatiosIntervalFromTheRuns() {
        Comparison c = comparison(6);
        JFreeChart headline = new ComparisonCharts(c, "bare").all().get(ComparisonCharts.HEADLINE);
        CategoryPlot plot = (CategoryPlot) headline.getPlot();
        MedianOfRunsDataset bars = (MedianOfRunsDataset) plot.getDataset();
        assertTrue(plot.getRenderer() instanceof WhiskerBarRenderer, "whiskers drawn");
        RunStatistics base = c.acrossRuns("bare", Comparison.TOTAL, SampleStatistics::throughputPerSec);
        for (String env : ENVIRONMENTS) {
            RunStatistics runs = c.acrossRuns(env, Comparison.TOTAL, SampleStatistics::throughputPerSec);
            double start = bars.getStartValue(env, Comparison.TOTAL).doubleValue();
            double end = bars.getEndValue(env, Comparison.TOTAL).doubleValue();
            if (env.equals("bare")) {
                assertEquals(100, start, 1e-9, "the baseline against itself: no whisker");
                assertEquals(100, end, 1e-9);
                continue;
            }
            RatioOfRuns r = RatioOfRuns.of(runs, base);
            assertTrue(r.available());
            assertEquals(100 * r.low(), start, 1e-9);
            assertEquals(100 * r.high(), end, 1e-9);
        }
        assertTrue(
                subtitles(headline).contains("whiskers: the ratio's 95% interval from the runs (as the score table)"),
                subtitles(headline));
    }

    @Test
    void oneRunDrawsNoWhiskerAndSaysSo() {
        JFreeChart p90 = new ComparisonCharts(comparison(1), "bare").all().get("p90");
        MedianOfRunsDataset bars = (MedianOfRunsDataset) ((CategoryPlot) p90.getPlot()).getDataset();
        assertEquals(bars.getStartValue(0, 0), bars.getEndValue(0, 0));
        assertTrue(subtitles(p90).contains("one run per environment: no whiskers"), subtitles(p90));
    }

    @Test
    void everyTitleSaysWhichWayIsBetter() throws Exception {
        Map<String, JFreeChart> charts = everyChart(new ComparisonCharts(comparison(2), "bare"), metrics(dir));
        charts.forEach((name, chart) -> assertTrue(
                chart.getTitle().getText().contains("lower is better")
                        || chart.getTitle().getText().contains("higher is better"),
                name + ": " + chart.getTitle().getText()));
        for (String lower : List.of("p90", "response-time-over-time", "percentiles", "cpu-over-time")) {
            assertTrue(charts.get(lower).getTitle().getText().contains("lower is better"), lower);
        }
        for (String higher : List.of(
                "throughput", "received", "relative-throughput", "relative-throughput-log", "throughput-over-time")) {
            assertTrue(charts.get(higher).getTitle().getText().contains("higher is better"), higher);
        }
    }

    @Test
    void tickLabelsUsePrefixesNeverExponents() {
        SiNumberFormat f = new SiNumberFormat();
        assertEquals("2.9 G", f.format(2.9e9));
        assertEquals("1.5 k", f.format(1500));
        assertEquals("12.5 M", f.format(12_500_000));
        assertEquals("0.25", f.format(0.25));
        assertEquals("-3 k", f.format(-3000));
        assertEquals("0", f.format(0));
        assertEquals("0", f.format(-1e-17), "an axis around zero has no tick at minus zero");
    }

    @Test
    void unitsArePickedFromTheValuesSize() {
        assertEquals("GB/s", Quantity.BYTES_PER_SECOND.scaleFor(2.9e9).name());
        assertEquals(
                2.9e9 / (1024.0 * 1024 * 1024),
                Quantity.BYTES_PER_SECOND.scaleFor(2.9e9).shown(2.9e9),
                1e-12);
        assertEquals("MB/s", Quantity.BYTES_PER_SECOND.scaleFor(1000 * 1024).name(), "1,000 KB/s reads 0.98 MB/s");
        assertEquals("KB/s", Quantity.BYTES_PER_SECOND.scaleFor(999 * 1024).name());
        assertEquals("B/s", Quantity.BYTES_PER_SECOND.scaleFor(0).name());
        assertEquals("ms", Quantity.MILLISECONDS.scaleFor(999).name());
        assertEquals("s", Quantity.MILLISECONDS.scaleFor(2500).name());
        assertEquals("min", Quantity.MILLISECONDS.scaleFor(3_600_000).name());
    }

    /** 7 MB a sample at about 400 samples/s: gigabytes a second, shown as GB/s with short numbers. */
    @Test
    void gigabytesASecondReadAsGBPerSecond() throws Exception {
        Comparison c = comparison(2);
        ComparisonCharts charts = new ComparisonCharts(c, "bare");
        JFreeChart received = charts.all().get("received");
        CategoryPlot plot = (CategoryPlot) received.getPlot();
        assertEquals("GB/s", plot.getRangeAxis().getLabel());
        double bytesPerSec = c.acrossRuns("bare", Comparison.TOTAL, s -> s.receivedKBytesPerSec() * 1024)
                .median();
        assertTrue(bytesPerSec > 1e9, "the fixture reaches gigabytes: " + bytesPerSec);
        assertEquals(
                bytesPerSec / (1024.0 * 1024 * 1024),
                plot.getDataset().getValue("bare", Comparison.TOTAL).doubleValue(),
                1e-9);
        for (Map.Entry<String, JFreeChart> e : everyChart(charts, metrics(dir)).entrySet()) {
            for (ValueAxis axis : valueAxes(e.getValue())) {
                String tick = (axis instanceof LogAxis log
                                ? log.getNumberFormatOverride()
                                : ((NumberAxis) axis).getNumberFormatOverride())
                        .format(2.9e9);
                assertEquals("2.9 G", tick, e.getKey() + ": " + axis.getLabel());
            }
            ChartFormat.SVG.write(e.getValue(), dir.resolve(e.getKey() + ".svg"), 900, 500);
            String svg = Files.readString(dir.resolve(e.getKey() + ".svg"));
            assertFalse(Pattern.compile(">[-0-9.,]+E-?[0-9]+<").matcher(svg).find(), e.getKey() + " shows an exponent");
        }
    }

    @Test
    void theCpuChartCountsTheHostInCoresAsTheTarget() throws Exception {
        MetricsFile metrics = metrics(dir);
        JFreeChart cpu = new ComparisonCharts(comparison(1), "bare").cpuOverTime(metrics);
        XYPlot plot = (XYPlot) cpu.getPlot();
        assertEquals(ComparisonCharts.CPU_AXIS, plot.getRangeAxis().getLabel());
        assertEquals(1, plot.getRangeAxisCount());
        assertTrue(ComparisonCharts.CPU_AXIS.contains("one core = 100"));
        XYDataset data = plot.getDataset();
        assertEquals(2 * ENVIRONMENTS.size(), data.getSeriesCount(), "host and target of each environment");
        for (int i = 0; i < data.getSeriesCount(); i++) {
            ComparisonCharts.CpuSeriesKey key = (ComparisonCharts.CpuSeriesKey) data.getSeriesKey(i);
            boolean target = key.whose().equals(ComparisonCharts.CpuSeriesKey.TARGET);
            List<double[]> recorded = metrics.over(key.environment(), target ? "target.cpu.pct" : "host.cpu.pct");
            assertEquals(recorded.size(), data.getItemCount(i));
            for (int item = 0; item < recorded.size(); item++) {
                assertEquals(
                        recorded.get(item)[1] * (target ? 1 : CORES),
                        data.getYValue(i, item),
                        1e-9,
                        key + " at " + item);
            }
            assertEquals(
                    target ? ChartStyle.DASHED : ChartStyle.SOLID,
                    plot.getRenderer().getSeriesStroke(i),
                    key.toString());
        }
    }

    @Test
    void aHostWithoutPerCoreColumnsIsLeftOutAndNamed() throws Exception {
        Path file = dir.resolve("old-metrics.csv");
        try (MetricsCsvWriter w = new MetricsCsvWriter(file)) {
            for (String env : ENVIRONMENTS) {
                w.write(1000, env, Map.of("host.cpu.pct", 50.0, "target.cpu.pct", 120.0));
                w.write(2000, env, Map.of("host.cpu.pct", 60.0, "target.cpu.pct", 130.0));
            }
        }
        JFreeChart cpu = new ComparisonCharts(comparison(1), "bare").cpuOverTime(MetricsFile.read(file));
        XYDataset data = ((XYPlot) cpu.getPlot()).getDataset();
        for (int i = 0; i < data.getSeriesCount(); i++) {
            assertEquals(
                    ComparisonCharts.CpuSeriesKey.TARGET,
                    ((ComparisonCharts.CpuSeriesKey) data.getSeriesKey(i)).whose());
        }
        assertTrue(
                subtitles(cpu).contains("host CPU of bare, docker-bridge, docker-host not shown: no per-core columns"),
                subtitles(cpu));
    }

    @Test
    void longLabelsWrapWithTheirFullTextInATooltip() {
        JFreeChart p90 = new ComparisonCharts(comparison(1), "bare").all().get("p90");
        CategoryPlot plot = (CategoryPlot) p90.getPlot();
        assertEquals(PlotOrientation.VERTICAL, plot.getOrientation(), "4 rows fit under the bars");
        assertTrue(plot.getDomainAxis().getMaximumCategoryLabelLines() > 1);
        assertEquals(LONG_LABEL, plot.getDomainAxis().getCategoryLabelToolTip(LONG_LABEL));
    }

    @Test
    void manyLabelsLieBesideHorizontalBars() throws Exception {
        Comparison c = new Comparison();
        for (int label = 0; label < 12; label++) {
            for (String env : ENVIRONMENTS) {
                c.add(
                        new Sample(env, "GET /shop/catalogue/page/" + label, 1000 + label, 5 + label, true, 100, 10),
                        "run1");
            }
        }
        JFreeChart p90 = new ComparisonCharts(c, "bare").all().get("p90");
        CategoryPlot plot = (CategoryPlot) p90.getPlot();
        assertEquals(PlotOrientation.HORIZONTAL, plot.getOrientation());
        Files.createDirectories(SAMPLES);
        ChartFormat.PNG.write(
                p90, SAMPLES.resolve("p90-12-labels.png"), ComparisonReport.CHART_WIDTH, ComparisonReport.CHART_HEIGHT);
        assertEquals(13, plot.getDataset().getColumnCount(), "12 labels and TOTAL");
    }

    /** Every chart in every format, non-blank; the PNGs stay in target/chart-samples to be looked at. */
    @Test
    void everyChartExportsNonBlankInEveryFormat() throws Exception {
        Files.createDirectories(SAMPLES);
        List<String> checked = new ArrayList<>();
        for (int runs : new int[] {2, 6}) {
            Map<String, JFreeChart> charts = everyChart(new ComparisonCharts(comparison(runs), "bare"), metrics(dir));
            for (Map.Entry<String, JFreeChart> e : charts.entrySet()) {
                String name = e.getKey() + "-" + runs + "-runs";
                Path png = SAMPLES.resolve(name + ".png");
                ChartFormat.PNG.write(e.getValue(), png, ComparisonReport.CHART_WIDTH, ComparisonReport.CHART_HEIGHT);
                BufferedImage image = ImageIO.read(png.toFile());
                assertEquals(ComparisonReport.CHART_WIDTH, image.getWidth());
                assertTrue(ComparisonReportTest.distinctColours(image) > 5, name + " is not blank");
                for (String env : ENVIRONMENTS) {
                    assertTrue(
                            containsColour(
                                    image,
                                    EnvironmentPalette.of(ENVIRONMENTS)
                                            .colour(env)
                                            .getRGB()),
                            name + " shows " + env + " (legend or data)");
                }
                Path svg = dir.resolve(name + ".svg");
                ChartFormat.SVG.write(e.getValue(), svg, ComparisonReport.CHART_WIDTH, ComparisonReport.CHART_HEIGHT);
                String svgText = Files.readString(svg);
                ENVIRONMENTS.forEach(env -> assertTrue(svgText.contains(">" + env), name + ".svg names " + env));
                Path pdf = dir.resolve(name + ".pdf");
                ChartFormat.PDF.write(e.getValue(), pdf, ComparisonReport.CHART_WIDTH, ComparisonReport.CHART_HEIGHT);
                byte[] pdfBytes = Files.readAllBytes(pdf);
                assertTrue(new String(pdfBytes, 0, 5).startsWith("%PDF") && pdfBytes.length > 2000, name + ".pdf");
                checked.add(name);
            }
        }
        assertEquals(18, checked.size());
    }

    /** The paint of each environment's series in a chart (bars: rows; lines: series, CPU lines by their environment). */
    private static Map<String, Paint> seriesPaints(JFreeChart chart) {
        Map<String, Paint> paints = new HashMap<>();
        if (chart.getPlot() instanceof CategoryPlot plot) {
            CategoryDataset d = plot.getDataset();
            for (int row = 0; row < d.getRowCount(); row++) {
                putOnce(paints, (String) d.getRowKey(row), plot.getRenderer().getItemPaint(row, 0));
            }
            return paints;
        }
        XYPlot plot = (XYPlot) chart.getPlot();
        XYDataset d = plot.getDataset();
        for (int i = 0; i < d.getSeriesCount(); i++) {
            String env = d.getSeriesKey(i) instanceof ComparisonCharts.CpuSeriesKey cpu
                    ? cpu.environment()
                    : (String) d.getSeriesKey(i);
            putOnce(paints, env, plot.getRenderer().getItemPaint(i, 0));
        }
        return paints;
    }

    private static void putOnce(Map<String, Paint> paints, String env, Paint paint) {
        Paint before = paints.putIfAbsent(env, paint);
        if (before != null) {
            assertEquals(before, paint, env + "'s lines in one chart");
        }
    }

    private static List<ValueAxis> valueAxes(JFreeChart chart) {
        if (chart.getPlot() instanceof CategoryPlot plot) {
            return List.of(plot.getRangeAxis());
        }
        XYPlot plot = (XYPlot) chart.getPlot();
        return List.of(plot.getDomainAxis(), plot.getRangeAxis());
    }

    private static String subtitles(JFreeChart chart) {
        StringBuilder b = new StringBuilder();
        for (Object t : chart.getSubtitles()) {
            if (t instanceof TextTitle text) {
                b.append(text.getText()).append('\n');
            }
        }
        return b.toString();
    }

    private static boolean containsColour(BufferedImage img, int rgb) {
        for (int x = 0; x < img.getWidth(); x++) {
            for (int y = 0; y < img.getHeight(); y++) {
                if ((img.getRGB(x, y) & 0xFFFFFF) == (rgb & 0xFFFFFF)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void anUnknownBaselineIsNamed() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new ComparisonCharts(comparison(1), "vm"));
        assertTrue(e.getMessage().startsWith("baseline: 'vm'"), e.getMessage());
    }

    @Test
    void runsPooledOverTimeGiveOnePointPerSecondTheirMean() {
        List<double[]> pooled = List.of(
                new double[] {0.2, 10},
                new double[] {0.7, 30},
                new double[] {1.1, 50},
                new double[] {0.4, 20},
                new double[] {1.9, 70});
        List<double[]> mean = ComparisonCharts.meanPerSecond(pooled);
        assertEquals(2, mean.size());
        assertEquals(20.0, mean.get(0)[1], 1e-9);
        assertEquals(60.0, mean.get(1)[1], 1e-9);
        assertEquals(1.0, mean.get(1)[0], 1e-9);
    }
}
