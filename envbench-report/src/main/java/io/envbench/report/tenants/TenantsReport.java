package io.envbench.report.tenants;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.envbench.measure.stats.SampleStatistics;
import io.envbench.report.ChartFormat;
import io.envbench.report.ComparisonCharts;
import io.envbench.report.ComparisonReport;
import io.envbench.report.RunConclusion;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.analysis.TenantResults;
import io.envbench.study.cpucontrol.TimelineCsv;
import io.envbench.study.experiment.Experiment;
import net.jcip.annotations.NotThreadSafe;
import org.jfree.chart.JFreeChart;

/**
 * The report of a multi-tenant run directory, the one for {@code envbench run} and the controller: the per-tenant
 * tables ({@link TenantResults}: {@code tenants.md}, {@code tenants.csv}), the paper's charts (a bar per tenant and
 * configuration: {@code tenants-throughput}, {@code tenants-mean}), and for every run with a timeline
 * ({@code timeline/RUN.csv}) its tenants' CPU and throughput over the run with the control's actions drawn over them
 * ({@link TenantRunCharts}: {@code tenants-cpu-RUN}, {@code tenants-throughput-RUN}). Not thread-safe: it hands out
 * its results, whose comparisons cache what they pool; one thread reads it.
 */
@NotThreadSafe
public final class TenantsReport {
    public static final String THROUGHPUT_CHART = "tenants-throughput";
    public static final String MEAN_CHART = "tenants-mean";
    /** Per run: {@code tenants-cpu-static-r1}. */
    public static final String RUN_CPU_CHART = "tenants-cpu-";
    /** Per run: {@code tenants-throughput-static-r1}. */
    public static final String RUN_THROUGHPUT_CHART = "tenants-throughput-";

    private final RunDirectory dir;
    private final Experiment experiment;
    private final List<RunRecord> runs;
    private final TenantResults results;

    private TenantsReport(RunDirectory dir, Experiment experiment, List<RunRecord> runs, TenantResults results) {
        this.dir = dir;
        this.experiment = experiment;
        this.runs = List.copyOf(runs);
        this.results = results;
    }

    /** Reads the completed runs of a multi-tenant run directory ({@link TenantResults#read}). */
    public static TenantsReport read(RunDirectory dir, Experiment e, List<RunRecord> runs) throws IOException {
        return new TenantsReport(dir, e, runs, TenantResults.read(dir, e, runs));
    }

    /**
     * The report of a concluded multi-tenant run directory's runs on record ({@code runs.csv}): its tenants table as the
     * conclusion read it along with the other figures, when the conclusion covers just those runs; else read anew
     * ({@link #read}).
     */
    public static TenantsReport of(RunConclusion c) throws IOException {
        List<RunRecord> onRecord = c.directory().runs().read();
        Optional<TenantResults> read =
                onRecord.equals(c.results().runs()) ? c.results().tenants() : Optional.empty();
        return read.isPresent()
                ? new TenantsReport(c.directory(), c.experiment(), onRecord, read.get())
                : read(c.directory(), c.experiment(), onRecord);
    }

    /** The figures per configuration x tenant. */
    public TenantResults results() {
        return results;
    }

    /** Whether any run gave figures. */
    public boolean hasFigures() {
        return results.hasFigures();
    }

    /**
     * Every chart by file name (without extension): the bars per tenant and configuration, then, per run with a
     * timeline, its CPU and throughput over time with the control's actions.
     *
     * @throws IOException when a run's timeline, metrics file or JTL cannot be read
     */
    public Map<String, JFreeChart> charts() throws IOException {
        Map<String, JFreeChart> charts = new LinkedHashMap<>();
        if (results.hasFigures()) {
            ComparisonCharts bars = new ComparisonCharts(results.configurationsByTenant(), experiment.baseline());
            charts.put(
                    THROUGHPUT_CHART,
                    bars.bars(
                            "Throughput per tenant — " + ComparisonCharts.HIGHER_IS_BETTER,
                            "requests/s",
                            SampleStatistics::throughputPerSec));
            charts.put(
                    MEAN_CHART,
                    bars.bars(
                            "Mean response time per tenant — " + ComparisonCharts.LOWER_IS_BETTER,
                            "ms",
                            SampleStatistics::meanMs));
        }
        charts.putAll(runCharts());
        return charts;
    }

    /** Per run that has a timeline: its tenants' CPU (with a metrics file) and throughput (with a JTL), the control's actions drawn over them. */
    public Map<String, JFreeChart> runCharts() throws IOException {
        Map<String, JFreeChart> charts = new LinkedHashMap<>();
        List<String> tenants = experiment.tenancy().orElseThrow().tenantNames();
        for (RunRecord r : runs) {
            Path timeline = dir.timeline(r.run());
            if (!Files.isRegularFile(timeline)) {
                continue;
            }
            List<ControlMarkers.Marker> markers = ControlMarkers.of(TimelineCsv.read(timeline), r.start());
            Optional<Instant> warmupEnd = Optional.ofNullable(r.firstSample())
                    .map(f -> f.plus(experiment.load().warmup()));
            TenantRunCharts c = new TenantRunCharts(r.run().id(), tenants, r.start(), warmupEnd, markers);
            if (TenantRunCharts.drawable(dir.metrics(r.run()))) {
                charts.put(RUN_CPU_CHART + r.run().id(), c.cpu(dir.metrics(r.run())));
            }
            if (TenantRunCharts.drawable(dir.jtl(r.run()))) {
                charts.put(RUN_THROUGHPUT_CHART + r.run().id(), c.throughput(dir.jtl(r.run())));
            }
        }
        return charts;
    }

    /**
     * Writes {@code tenants.csv}, {@code tenants.md} and every chart (PNG, SVG, PDF under {@code charts/}) into a report
     * folder; returns the files.
     */
    public List<Path> write(Path reportDir) throws IOException {
        Files.createDirectories(reportDir);
        List<Path> written = new ArrayList<>();
        Path csv = reportDir.resolve("tenants.csv");
        results.writeCsv(csv);
        written.add(csv);
        Path md = reportDir.resolve("tenants.md");
        Files.writeString(md, results.markdown());
        written.add(md);
        written.addAll(ComparisonReport.writeCharts(charts(), reportDir.resolve("charts"), ChartFormat.values()));
        return written;
    }
}
