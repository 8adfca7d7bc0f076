package io.envbench.report;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.ResponseErrors;
import io.envbench.measure.stats.AcrossRuns;
import io.envbench.measure.stats.Comparison;
import io.envbench.measure.stats.Correction;
import io.envbench.measure.stats.Figure;
import io.envbench.measure.stats.MannWhitney;
import io.envbench.measure.stats.RatioOfRuns;
import io.envbench.measure.stats.RunStatistics;
import io.envbench.measure.stats.SampleStatistics;
import io.envbench.measure.stats.Verdict;
import io.envbench.measure.stats.VerdictFamily;
import io.envbench.report.header.RunHeader;
import io.envbench.study.analysis.CostPerRequest;
import org.jfree.chart.JFreeChart;

/**
 * The comparison as documents: {@code comparison.csv} (one row per environment x label),
 * {@code comparison.md}, a self-contained {@code index.html} and every chart as PNG, SVG and PDF.
 * Figures pooled over all samples follow JMeter; verdicts (which differences hold) come only from
 * the runs, through {@link AcrossRuns}.
 */
public final class ComparisonReport {
    /**
     * The pooled figures (JMeter's), then per figure across runs: median, its 95% CI, change vs baseline, raw p, p
     * adjusted over the report's family, verdict, CV and the smallest detectable change (figures not judged: no
     * adjusted p, verdict "not judged").
     */
    public static final String CSV_HEADER =
            "env,label,count,mean,median,p90,p95,p99,min,max,errorPct,throughput,receivedKBps,sentKBps,aggregateReport90,runs"
                    + Arrays.stream(Figure.values())
                            .map(Figure::criterionName)
                            .map(n -> "," + n + "MedianOfRuns," + n + "Ci95Low," + n + "Ci95High," + n
                                    + "VsBaselinePct," + n + "P," + n + "AdjustedP," + n + "Verdict," + n + "Cv," + n
                                    + "DetectablePct")
                            .collect(Collectors.joining());

    /** The verdict column of a figure the report describes but does not judge ({@link AcrossRuns#JUDGED}). */
    public static final String NOT_JUDGED = "not judged";

    public static final int CHART_WIDTH = 900;
    public static final int CHART_HEIGHT = 500;

    private final Comparison c;
    private final String baseline;
    private final AcrossRuns acrossRuns;
    /** Every verdict the report states, judged together. */
    private final VerdictFamily family;
    /** The environment that is the baseline run again ({@code calibration: aa}), or null. */
    private final String calibrationCopy;

    private final MetricsFile metrics;
    /** Said first, in red in HTML: e.g. that runs are missing and the report is partial. */
    private final List<String> notices;
    /** Advice drawn from the resources, each naming its figure. */
    private final List<String> hints;
    /** Each environment's colour in the charts. */
    private final EnvironmentPalette palette;
    /** Failed samples by environment, label and response code; empty: no section. */
    private final List<ResponseErrors.Row> errors;

    public ComparisonReport(Comparison c, String baseline) {
        this(c, baseline, (MetricsFile) null);
    }

    /** @param metrics the Resource Monitor's metrics file, or null: resources next to latency, CPU over time */
    public ComparisonReport(Comparison c, String baseline, MetricsFile metrics) {
        this(c, baseline, initial(c, metrics));
    }

    private static Parts initial(Comparison c, MetricsFile metrics) {
        Parts p = new Parts();
        p.metrics = metrics;
        p.palette = EnvironmentPalette.of(c);
        return p;
    }

    /**
     * What a report adds to its comparison, each part set by its {@code with} method on a copy.
     *
     * <p>costMicros: per environment, its runs' CPU microseconds per request (empty: no such table); costCpu: per
     * environment, the median of its runs' CPU and of docker-proxy's (one core = 100).
     */
    private static final class Parts {
        MetricsFile metrics;
        List<String> notices = List.of();
        List<String> hints = List.of();
        EnvironmentPalette palette;
        List<ResponseErrors.Row> errors = List.of();
        Correction correction = Correction.BH;
        String calibrationCopy;
        Set<String> generatorBound = Set.of();
        Map<String, RunStatistics> costMicros = Map.of();
        Map<String, double[]> costCpu = Map.of();
        Map<String, Map<String, RunStatistics>> costByLabel = Map.of();
        List<Figure> judged = AcrossRuns.JUDGED;
        RunHeader header = RunHeader.unnamed();

        Parts copy() {
            Parts p = new Parts();
            p.metrics = metrics;
            p.notices = notices;
            p.hints = hints;
            p.palette = palette;
            p.errors = errors;
            p.correction = correction;
            p.calibrationCopy = calibrationCopy;
            p.generatorBound = generatorBound;
            p.costMicros = costMicros;
            p.costCpu = costCpu;
            p.costByLabel = costByLabel;
            p.judged = judged;
            p.header = header;
            return p;
        }
    }

    private final Parts parts;

    private ComparisonReport(Comparison c, String baseline, Parts parts) {
        this.c = c;
        this.parts = parts;
        this.calibrationCopy = parts.calibrationCopy;
        this.errors = List.copyOf(parts.errors);
        this.palette = parts.palette;
        this.acrossRuns = new AcrossRuns(c, baseline);
        this.baseline = acrossRuns.baseline();
        List<Verdict> all = new ArrayList<>(acrossRuns.judgedVerdicts(parts.judged));
        parts.costMicros.forEach((env, runs) -> all.add(Verdict.ofRuns(
                env,
                CostPerRequest.LABEL,
                this.baseline,
                runs,
                parts.costMicros.getOrDefault(this.baseline, RunStatistics.of(List.of())),
                AcrossRuns.ALPHA)));
        this.family = VerdictFamily.of(all, parts.correction, parts.generatorBound);
        this.metrics = parts.metrics;
        this.notices = List.copyOf(parts.notices);
        this.hints = List.copyOf(parts.hints);
    }

    /**
     * The same report with notices said first (e.g. "PARTIAL: 3 runs missing") and hints after the tables,
     * in every format.
     */
    public ComparisonReport withNotes(List<String> notices, List<String> hints) {
        Parts p = parts.copy();
        p.notices = List.copyOf(notices);
        p.hints = List.copyOf(hints);
        return new ComparisonReport(c, baseline, p);
    }

    /** The same report with the charts' colours by this order (an experiment's), as its live view drew them. */
    public ComparisonReport withPalette(EnvironmentPalette palette) {
        Parts p = parts.copy();
        p.palette = palette;
        return new ComparisonReport(c, baseline, p);
    }

    /** The same report with a section "Errors by response code" (when there are any), in every format. */
    public ComparisonReport withErrors(List<ResponseErrors.Row> errors) {
        Parts p = parts.copy();
        p.errors = List.copyOf(errors);
        return new ComparisonReport(c, baseline, p);
    }

    /** The same report with its verdicts adjusted by this correction (an experiment's {@code correction}). */
    public ComparisonReport withCorrection(Correction correction) {
        Parts p = parts.copy();
        p.correction = correction;
        return new ComparisonReport(c, baseline, p);
    }

    /**
     * The same report reading this environment as the baseline run again (an experiment's {@code calibration: aa}):
     * its comparison with the baseline is said first, as what chance alone gives here.
     */
    public ComparisonReport withCalibration(Optional<String> baselineCopy) {
        Parts p = parts.copy();
        p.calibrationCopy = baselineCopy.orElse(null);
        return new ComparisonReport(c, baseline, p);
    }

    /**
     * The same report without verdicts on these environments' JMeter figures (nor on any, when the baseline is one):
     * the load generator set their pace, so those figures measure it. The notices should say why. Their CPU per
     * request keeps its verdict: it counts the target's work per request, whatever set the pace.
     */
    public ComparisonReport withGeneratorBound(Set<String> environments) {
        Parts p = parts.copy();
        p.generatorBound = Set.copyOf(environments);
        return new ComparisonReport(c, baseline, p);
    }

    /** The same report with a table of what each environment spent per request, judged with the other verdicts. */
    /**
     * The same report judging only these of JMeter's figures (default {@link AcrossRuns#JUDGED}): at a fixed rate the
     * schedule sets the throughput, so testing it only spends the family's power on the arrivals' randomness.
     */
    public ComparisonReport withJudged(List<Figure> figures) {
        Parts p = parts.copy();
        p.judged = List.copyOf(figures);
        return new ComparisonReport(c, baseline, p);
    }

    /**
     * The same report judging what its samples' load can show: where every environment's samples had an intended
     * start (an open-model fixed rate, the EnvBench Arrivals Timer), the 90% line only, as {@link #withJudged}; else
     * as it was. For result files without their experiment (the JMeter listener, {@code envbench report}).
     */
    public ComparisonReport judgedAsItsLoadWas() {
        boolean fixedRate = !c.environments().isEmpty()
                && c.environments().stream().allMatch(env -> {
                    SampleStatistics all = c.get(env, Comparison.TOTAL);
                    return all != null && all.scheduled();
                });
        return fixedRate ? withJudged(List.of(Figure.P90)) : this;
    }

    /**
     * The same report opening with what it is about (the experiment's name as title, outcome, time, host, each
     * environment's options, the criteria's verdicts), in every format.
     */
    public ComparisonReport withHeader(RunHeader header) {
        Parts p = parts.copy();
        p.header = header;
        return new ComparisonReport(c, baseline, p);
    }

    /** What the report says about its run before any figure; {@link RunHeader#unnamed()} for result files alone. */
    public RunHeader header() {
        return parts.header;
    }

    public ComparisonReport withCost(CostPerRequest cost) {
        Parts p = parts.copy();
        p.costMicros = cost.microsecondsPerRequest();
        p.costCpu = cost.cpuPct();
        p.costByLabel = cost.microsecondsPerRequestByLabel();
        return new ComparisonReport(c, baseline, p);
    }

    public static final String[] COST_LABEL_HEAD = {
        "label",
        "environment",
        "runs",
        "CPU µs per request, apportioned (median of runs)",
        "vs baseline (ratio of medians)"
    };

    public static final String COST_LABEL_NOTE =
            "Each run's CPU per request shared among its labels by the time the target spent answering each (a"
                    + " label's mean response time over that of all labels): a label whose requests take twice as long"
                    + " is taken to cost twice the CPU. That holds for CPU-bound work, not for a request that waits on a"
                    + " disk or another service, so these rows are an estimate, described here and not judged.";

    /** Per label and environment, its apportioned CPU per request against the baseline's; see {@link #COST_LABEL_HEAD}. */
    public List<String[]> costLabelRows() {
        List<String[]> rows = new ArrayList<>();
        parts.costByLabel.forEach((label, byEnv) -> {
            RunStatistics base = byEnv.get(baseline);
            byEnv.forEach((env, runs) -> rows.add(new String[] {
                label,
                env,
                Long.toString(runs.runs()),
                f1(runs.median()),
                env.equals(baseline)
                        ? "baseline"
                        : base == null || !(base.median() > 0)
                                ? ""
                                : String.format(Locale.ROOT, "%.2fx", runs.median() / base.median())
            }));
        });
        return rows;
    }

    public static final String[] COST_HEAD = {
        "environment",
        "runs",
        "CPU µs per request (median of runs)",
        "95% CI",
        "vs baseline",
        "CPU % of one core (one core = 100; median of runs)",
        "of which docker-proxy, % of one core"
    };

    public static final String COST_NOTE =
            "What each environment spent per request: the CPU time of everything it is made of (its container or host"
                    + " process tree, each service of a multi-service target, and the docker-proxy carrying its published"
                    + " port; one core = 100%) over its runs' requests per second, after the warm-up, one value per run."
                    + " It counts the target's work per request whatever set the pace, so it shows what a container costs"
                    + " at a fixed rate below capacity, and where JMeter bounded the throughput. Judged with the other"
                    + " verdicts.";

    /** Per environment, its CPU per request against the baseline's; empty without metrics. See {@link #COST_HEAD}. */
    public List<String[]> costRows() {
        List<String[]> rows = new ArrayList<>();
        parts.costMicros.forEach((env, runs) -> {
            Verdict v = family.get(env, CostPerRequest.LABEL, null).orElseThrow();
            double[] cpu = parts.costCpu.getOrDefault(env, new double[] {Double.NaN, Double.NaN});
            rows.add(new String[] {
                env,
                Long.toString(runs.runs()),
                f1(runs.median()),
                ci(runs),
                env.equals(baseline) ? "baseline" : vsBaseline(v),
                f1(cpu[0]),
                f1(cpu[1])
            });
        });
        return rows;
    }

    public static final String[] INTENDED_HEAD = {
        "environment",
        "runs",
        "90% ms from the actual start (JMeter's)",
        "90% ms from the intended start",
        "99% ms from the actual start",
        "99% ms from the intended start"
    };

    public static final String INTENDED_NOTE =
            "Under an open-model load (the EnvBench Arrivals Timer) each sample had an intended start: its arrival in"
                    + " the schedule. A sample whose thread was still busy with an earlier one started late; counted"
                    + " from its intended start, its response time includes that wait, as a user arriving then would"
                    + " have seen it (the coordinated-omission correction of wrk2 and HdrHistogram). JMeter's own"
                    + " figures, and every other table here, count from the actual start. Medians of runs, all labels"
                    + " together; LEGACY percentiles as JMeter's HTML report. Close columns: the load kept its schedule.";

    /** Per environment whose samples all had an intended start, its percentiles from the actual and the intended start. */
    public List<String[]> intendedRows() {
        List<String[]> rows = new ArrayList<>();
        for (String env : c.environments()) {
            SampleStatistics all = c.get(env, Comparison.TOTAL);
            if (all == null || !all.scheduled()) {
                continue;
            }
            rows.add(new String[] {
                env,
                Long.toString(c.acrossRuns(env, Comparison.TOTAL, Figure.P90).runs()),
                f1(c.acrossRuns(env, Comparison.TOTAL, Figure.P90).median()),
                f1(c.acrossRuns(env, Comparison.TOTAL, s -> s.percentileFromIntendedMs(90))
                        .median()),
                f1(c.acrossRuns(env, Comparison.TOTAL, Figure.P99).median()),
                f1(c.acrossRuns(env, Comparison.TOTAL, s -> s.percentileFromIntendedMs(99))
                        .median())
            });
        }
        return rows;
    }

    public static final String[] NOISE_HEAD = {
        "environment",
        "runs",
        "throughput: smallest detectable change (% of the baseline's median)",
        "90%: smallest detectable change (% of the baseline's median)"
    };

    public static final String NOISE_NOTE =
            "The noise floor of each comparison with the baseline (all labels together): the smallest change of the"
                    + " median of runs that these runs, with their spread and this many of them, would have called"
                    + " significant in this report's family (up or down, the larger). A \"~\" means no change above it;"
                    + " below it this machine cannot tell. More runs, or quieter ones, lower it.";

    /** Per compared environment, the smallest change of throughput and 90% its runs could show; see {@link #NOISE_HEAD}. */
    public List<String[]> noiseRows() {
        List<String[]> rows = new ArrayList<>();
        for (String env : c.environments()) {
            if (env.equals(baseline)) {
                continue;
            }
            Verdict t = verdict(env, Comparison.TOTAL, Figure.THROUGHPUT);
            Verdict p = verdict(env, Comparison.TOTAL, Figure.P90);
            if (t.runs().runs() == 0) {
                continue;
            }
            rows.add(new String[] {
                env + (env.equals(calibrationCopy) ? " (" + baseline + " again)" : ""),
                t.runs().runs() + " + " + t.baselineRuns().runs(),
                parts.judged.contains(Figure.THROUGHPUT) ? detectable(t) : NOT_JUDGED,
                detectable(p)
            });
        }
        return rows;
    }

    private static String detectable(Verdict v) {
        return switch (v.kind()) {
            case TOO_FEW_RUNS -> "none: too few runs";
            case GENERATOR_BOUND -> "none: generator-bound";
            case NO_RUNS, BASELINE -> "–";
            default ->
                Double.isNaN(v.detectablePct())
                        ? "–"
                        : Double.isInfinite(v.detectablePct())
                                ? "none at this many runs"
                                : String.format(Locale.ROOT, "%.1f%%", v.detectablePct());
        };
    }

    /**
     * With {@code calibration: aa}: what the baseline against itself gave, e.g. "Calibration (A/A): bare-aa is bare
     * run again in every round; against it: throughput ~ p=0.486 ..., 90% ...". Empty without.
     */
    public Optional<String> calibrationNote() {
        if (calibrationCopy == null || !c.environments().contains(calibrationCopy)) {
            return Optional.empty();
        }
        Verdict t = verdict(calibrationCopy, Comparison.TOTAL, Figure.THROUGHPUT);
        Verdict p = verdict(calibrationCopy, Comparison.TOTAL, Figure.P90);
        boolean throughputJudged = parts.judged.contains(Figure.THROUGHPUT);
        return Optional.of("Calibration (A/A): " + calibrationCopy + " is " + baseline
                + " run again in every round, so its differences are chance alone: "
                + (throughputJudged ? "throughput " + t.text() + ", " : "")
                + "90% " + p.text()
                + (throughputJudged && t.significant() || p.significant()
                        ? ". A significant A/A difference means the runs drift or interfere: distrust the other verdicts"
                        : "")
                + ".");
    }

    /** The verdicts the report states (throughput and 90% of every label x environment), judged together. */
    public VerdictFamily verdicts() {
        return family;
    }

    /** A judged figure's verdict from the family; any other figure's alone, for its description. */
    private Verdict verdict(String env, String label, Figure figure) {
        return family.get(env, acrossRuns.judgedRow(label), figure)
                .orElseGet(() -> acrossRuns.versusBaseline(env, label, figure));
    }

    /** What the family was and what it found, said above the tables. */
    public String familyNote() {
        List<String> names = new ArrayList<>();
        if (parts.judged.contains(Figure.THROUGHPUT)) {
            names.add("throughput");
        }
        if (parts.judged.contains(Figure.P90)) {
            names.add("90%");
        }
        if (!parts.costMicros.isEmpty()) {
            names.add("CPU per request");
        }
        String of = names.size() < 2
                ? String.join("", names)
                : String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
        return family.note(of)
                + (parts.judged.contains(Figure.THROUGHPUT)
                        ? ""
                        : " Throughput is not judged: the load's fixed rate sets it, and its differences are those of"
                                + " random arrivals.");
    }

    public static final String[] ERRORS_HEAD = {"environment", "label", "response code", "response message", "samples"};

    public static final String ERRORS_NOTE =
            "Failed samples after the warm-up, by environment, label, response code and message "
                    + "(an assertion's failure keeps the server's code: a 200 where a 302 was expected is a failed login or form).";

    /** The errors section's rows. */
    public List<String[]> errorRows() {
        return errors.stream()
                .map(r -> new String[] {
                    r.environment(), r.label(), r.responseCode(), r.responseMessage(), Long.toString(r.count())
                })
                .toList();
    }

    /** Every chart of the report by file name (without extension): the comparison's, and CPU over time with metrics. */
    public Map<String, JFreeChart> charts() {
        ComparisonCharts source = new ComparisonCharts(c, baseline, palette);
        Map<String, JFreeChart> charts = source.all();
        if (metrics != null) {
            charts.put("cpu-over-time", source.cpuOverTime(metrics));
        }
        return charts;
    }

    /**
     * Writes charts into {@code dir} as {@code NAME.EXT}, in each format, at the report's size; returns the files, chart
     * by chart. Charts are drawn side by side, one thread per core: each is drawn by one thread, its formats in turn, so
     * no chart is ever drawn twice at once.
     */
    public static List<Path> writeCharts(Map<String, JFreeChart> charts, Path dir, ChartFormat... formats)
            throws IOException {
        Files.createDirectories(dir);
        int threads = Math.max(1, Math.min(charts.size(), Runtime.getRuntime().availableProcessors()));
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "envbench-charts");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<List<Path>>> drawn = new ArrayList<>();
            for (Map.Entry<String, JFreeChart> e : charts.entrySet()) {
                drawn.add(pool.submit(() -> {
                    List<Path> files = new ArrayList<>();
                    for (ChartFormat f : formats) {
                        Path file = dir.resolve(e.getKey() + "." + f.extension());
                        f.write(e.getValue(), file, CHART_WIDTH, CHART_HEIGHT);
                        files.add(file);
                    }
                    return files;
                }));
            }
            List<Path> written = new ArrayList<>();
            for (Future<List<Path>> d : drawn) {
                written.addAll(d.get());
            }
            return written;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while writing charts into " + dir);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    public static final String[] METRICS_HEAD = {
        "environment",
        "host CPU % of the whole machine (all cores = 100) avg / peak",
        "JMeter CPU % of one core (one core = 100) avg / peak",
        "target CPU % of one core (one core = 100) avg / peak",
        "docker-proxy CPU % of one core (one core = 100) avg / peak",
        "disk write KB/s avg / peak",
        "network rx KB/s avg / peak (all interfaces)",
        "I/O wait % of the whole machine (all cores = 100) avg / peak"
    };

    public static final String METRICS_NOTE =
            "From the Resource Monitor's metrics file: host CPU counts the whole machine as 100; "
                    + "JMeter (its own JVM), the target (its container or process tree) and docker-proxy (Docker's userland port proxy) "
                    + "count one core as 100; I/O wait is the host's share of CPU time idle with disk I/O outstanding (all CPUs = 100). "
                    + "On a small machine JMeter competes with the target for the same CPUs.";

    /** The compared environments the metrics file has rows of, in the comparison's order; none without a file. */
    private List<String> environmentsWithMetrics() {
        return metrics == null
                ? List.of()
                : c.environments().stream()
                        .filter(metrics.environments()::contains)
                        .toList();
    }

    /**
     * Where the metrics file's columns came from (its sources file, or an old file's comment line), e.g. {@code Sources:
     * host.* procfs of this host; container.docker-bridge.* cgroup v2}; empty when the file does not say.
     */
    public Optional<String> sourcesNote() {
        if (metrics == null || metrics.sources().isEmpty()) {
            return Optional.empty();
        }
        List<String> each = new ArrayList<>();
        metrics.sources().forEach((pattern, source) -> each.add(pattern + " " + source));
        return Optional.of("Sources: " + String.join("; ", each) + ".");
    }

    /** Average and peak resources per environment from the metrics file. */
    public List<String[]> metricsRows() {
        List<String[]> rows = new ArrayList<>();
        for (String env : environmentsWithMetrics()) {
            rows.add(new String[] {
                env,
                avgPeak(metrics.summary(env, MetricName.HOST_CPU.column()), 1),
                avgPeak(metrics.summary(env, MetricName.JMETER_CPU), 1),
                avgPeak(metrics.summary(env, MetricName.TARGET_CPU.column()), 1),
                avgPeak(metrics.summary(env, MetricName.DOCKER_PROXY_CPU), 1),
                avgPeak(metrics.summaryOfSum(env, MetricName.Family.DISK.any("write.bytesPerSec")), 1024),
                avgPeak(metrics.summaryOfSum(env, MetricName.Family.NET.any("rx.bytesPerSec")), 1024),
                avgPeak(metrics.summary(env, MetricName.HOST_CPU_IOWAIT.column()), 1)
            });
        }
        return rows;
    }

    public static final String[] SERVICES_HEAD = {
        "environment",
        "service",
        "CPU % of one core (one core = 100) avg / peak",
        "memory MiB avg / peak",
        "storage write KB/s avg / peak",
        "storage read KB/s avg / peak"
    };

    public static final String SERVICES_NOTE =
            "Each service of a multi-service target apart (its process tree, in a container too, "
                    + "seen from the host): CPU counts one core as 100; storage writes and reads are what its processes caused to be sent "
                    + "to or fetched from the disks (/proc/PID/io write_bytes and read_bytes: a buffered write counts when the page is "
                    + "dirtied, for the process that dirtied it), so the database's own write rate stands beside the host's disk writes.";

    private static final Pattern SERVICE_CPU = Pattern.compile("process\\.(.+)/([^/]+)\\.cpu\\.pct");

    /** Per environment x service of a multi-service target: its CPU, memory and storage I/O; empty without such columns. */
    public List<String[]> servicesRows() {
        List<String[]> rows = new ArrayList<>();
        for (String env : environmentsWithMetrics()) {
            for (String m : metrics.metrics(env)) {
                Matcher x = SERVICE_CPU.matcher(m);
                if (!x.matches() || !x.group(1).equals(env)) {
                    continue;
                }
                String p = MetricName.Family.PROCESS.prefix() + env + "/" + x.group(2) + ".";
                rows.add(new String[] {
                    env,
                    x.group(2),
                    avgPeak(metrics.summary(env, p + MetricName.CPU_PCT), 1),
                    avgPeak(metrics.summary(env, p + "rss.bytes"), 1024 * 1024),
                    avgPeak(metrics.summary(env, p + "io.write.bytesPerSec"), 1024),
                    avgPeak(metrics.summary(env, p + "io.read.bytesPerSec"), 1024)
                });
            }
        }
        return rows;
    }

    private static String avgPeak(MetricsFile.Summary s, double divisor) {
        return f1(s.average() / divisor) + " / " + f1(s.peak() / divisor);
    }

    public String baseline() {
        return baseline;
    }

    /**
     * The verdicts behind the tables: medians of runs, changes against the baseline and their significance, per
     * environment x label x figure (e.g. {@code acrossRuns().medianOfRuns("docker-bridge", "GET /", Figure.P90)}).
     */
    public AcrossRuns acrossRuns() {
        return acrossRuns;
    }

    /** Writes everything into {@code dir}; returns the files written. */
    public List<Path> write(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        written.add(write(dir.resolve("comparison.csv"), csv()));
        written.add(write(dir.resolve("comparison.md"), markdown()));
        Map<String, JFreeChart> charts = charts();
        written.addAll(writeCharts(charts, dir.resolve("charts"), ChartFormat.values()));
        written.add(write(dir.resolve("index.html"), html(charts.keySet())));
        return written;
    }

    private static Path write(Path file, String text) throws IOException {
        // write beside, then move: a report file is never left half-written
        Path tmp = file.resolveSibling(file.getFileName() + ".part");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        return Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public String csv() {
        StringBuilder b = new StringBuilder(CSV_HEADER).append('\n');
        for (String label : c.rows()) {
            for (String env : c.environments()) {
                SampleStatistics s = c.get(env, label);
                if (s == null) {
                    continue;
                }
                b.append(String.join(
                        ",",
                        csvField(env),
                        csvField(label),
                        Long.toString(s.count()),
                        num(s.meanMs()),
                        num(s.medianMs()),
                        num(s.percentileMs(90)),
                        num(s.percentileMs(95)),
                        num(s.percentileMs(99)),
                        Long.toString(s.minMs()),
                        Long.toString(s.maxMs()),
                        num(s.errorPct()),
                        num(s.throughputPerSec()),
                        num(s.receivedKBytesPerSec()),
                        num(s.sentKBytesPerSec()),
                        Long.toString(s.aggregateReport90Ms()),
                        Long.toString(
                                c.acrossRuns(env, label, Figure.THROUGHPUT).runs())));
                for (Figure f : Figure.values()) {
                    Verdict v = verdict(env, label, f);
                    boolean judged = parts.judged.contains(f);
                    RunStatistics.MedianInterval ci = v.runs().medianCi95();
                    b.append(',')
                            .append(String.join(
                                    ",",
                                    num(v.medianOfRuns()),
                                    num(ci.low()),
                                    num(ci.high()),
                                    num(v.changePct()),
                                    num(v.p()),
                                    judged ? num(v.adjustedP()) : "",
                                    csvField(
                                            judged || v.kind() == Verdict.Kind.BASELINE
                                                    ? v.kind().word()
                                                    : NOT_JUDGED),
                                    num(v.runs().cv()),
                                    judged ? num(v.detectablePct()) : ""));
                }
                b.append('\n');
            }
        }
        return b.toString();
    }

    /** A field as RFC 4180 (and JMeter) quote it: a comma, a quote or a line end inside keeps the row one row. */
    private static String csvField(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
                ? "\"" + s.replace("\"", "\"\"") + "\""
                : s;
    }

    /** A cell on one line (a label may hold a line end): shown as \n and \r, so a row of a table stays one line. */
    static String oneLine(String cell) {
        return cell.indexOf('\n') < 0 && cell.indexOf('\r') < 0
                ? cell
                : cell.replace("\r", "\\r").replace("\n", "\\n");
    }

    private static String num(double v) {
        return Double.isNaN(v)
                ? ""
                : String.format(Locale.ROOT, "%.4f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    /**
     * Table rows: label, env, runs, JMeter's figures over all samples, and the across-runs verdicts of throughput and
     * 90% against the baseline; columns as {@link #TABLE_HEAD}.
     */
    /**
     * A rate of one environment x label: JMeter's figure of the only run, else the median of the runs' figures
     * (pooling runs that ran one after another would count the time between them).
     */
    private double perRun(String env, String label, ToDoubleFunction<SampleStatistics> rate) {
        return c.acrossRuns(env, label, rate).median();
    }

    public List<String[]> tableRows() {
        List<String[]> rows = new ArrayList<>();
        for (String label : c.rows()) {
            for (String env : c.environments()) {
                SampleStatistics s = c.get(env, label);
                if (s == null) {
                    continue;
                }
                Verdict throughput = verdict(env, label, Figure.THROUGHPUT);
                rows.add(new String[] {
                    label,
                    env,
                    Long.toString(throughput.runs().runs()),
                    Long.toString(s.count()),
                    f2(s.meanMs()),
                    f1(s.medianMs()),
                    f1(s.percentileMs(90)),
                    Long.toString(s.aggregateReport90Ms()),
                    Long.toString(s.minMs()),
                    Long.toString(s.maxMs()),
                    f2(s.errorPct()) + "%",
                    f1(perRun(env, label, SampleStatistics::throughputPerSec)),
                    f1(perRun(env, label, SampleStatistics::receivedKBytesPerSec)),
                    throughput.mark(),
                    verdict(env, label, Figure.P90).mark()
                });
            }
        }
        return rows;
    }

    public static final String[] TABLE_HEAD = {
        "label",
        "environment",
        "runs",
        "count",
        "average ms",
        "median ms",
        "90% ms",
        "90% line ms (Aggregate)",
        "min ms",
        "max ms",
        "error % (of samples)",
        "throughput requests/s",
        "received KB/s",
        "throughput vs baseline (% change of medians of runs)",
        "90% vs baseline (% change of medians of runs)"
    };

    public static final String TABLE_NOTE =
            "count to error % pool all samples of all runs, as JMeter: average, median and "
                    + "90% follow its HTML report (mean; commons-math Percentile, LEGACY estimation); \"90% line (Aggregate)\" its Aggregate "
                    + "Report (nearest rank); throughput = count / (last sample end - first sample start) and KB/s = bytes / 1024 over the same "
                    + "time, of the one run, or with several runs the median of the runs' figures (pooled, the time between runs would count). \"vs baseline (runs)\" compares one value per run: the change of the median of runs against the baseline's, "
                    + "with the p-value of the exact Mann-Whitney U test on the per-run values (two-sided) and, where the report "
                    + "holds more than one test, that p adjusted over all of them: a change with its p holds (adjusted p < "
                    + AcrossRuns.ALPHA
                    + "); \"~\" marks no significant difference, with the smallest change the runs could have shown (MDE); "
                    + "\"(too few runs: n vs m)\" gives the change "
                    + "without a verdict, as even completely separated runs could not reach p < " + AcrossRuns.ALPHA
                    + " (at least "
                    + MannWhitney.runsNeededEach(AcrossRuns.ALPHA) + " runs each needed).";

    /** The across-runs table: per label x environment, throughput and 90% as median of runs, 95% CI, verdict, CV; see {@link #RUN_HEAD}. */
    public List<String[]> runRows() {
        List<String[]> rows = new ArrayList<>();
        for (String label : c.rows()) {
            for (String env : c.environments()) {
                Verdict t = verdict(env, label, Figure.THROUGHPUT);
                Verdict p = verdict(env, label, Figure.P90);
                if (t.runs().runs() == 0) {
                    continue;
                }
                List<String> notes = new ArrayList<>();
                if (t.kind() == Verdict.Kind.TOO_FEW_RUNS) {
                    notes.add(t.text());
                }
                variesNote(t.runs(), p.runs()).ifPresent(notes::add);
                if (t.runs().runs() < 2 && notes.isEmpty()) {
                    notes.add("one run: repeat it for a verdict");
                }
                rows.add(new String[] {
                    label,
                    env,
                    Long.toString(t.runs().runs()),
                    f1(t.medianOfRuns()),
                    ci(t.runs()),
                    parts.judged.contains(Figure.THROUGHPUT) ? vsBaseline(t) : notJudged(t),
                    pct(t.runs().cv()),
                    f1(p.medianOfRuns()),
                    ci(p.runs()),
                    vsBaseline(p),
                    pct(p.runs().cv()),
                    String.join("; ", notes)
                });
            }
        }
        return rows;
    }

    /**
     * JMeter's elapsed times are whole milliseconds: 90% lines of 1 and 2 ms differ by the clock's step, not by noise,
     * though their CV is 47%. A spread within this many ms is not called variation.
     */
    static final double ELAPSED_RESOLUTION_MS = 1;

    /**
     * "varies: throughput CV 5.2%, 90% CV 8.0% (above 3.5%): about 9 runs in all ..." for the figures whose runs really
     * spread beyond {@link RunStatistics#CV_WARNING}; empty when none does. Any row may vary, the baseline's too; none
     * is marked for being the baseline, and a 90% line is not marked for a spread within the clock's step.
     */
    static Optional<String> variesNote(RunStatistics throughput, RunStatistics p90) {
        List<String> which = new ArrayList<>();
        long runsNeeded = 0;
        if (throughput.tooVariable()) {
            which.add("throughput CV " + pct(throughput.cv()));
            runsNeeded = throughput.runsNeeded();
        }
        if (p90.tooVariable() && spread(p90) > ELAPSED_RESOLUTION_MS) {
            which.add("90% CV " + pct(p90.cv()));
            runsNeeded = Math.max(runsNeeded, p90.runsNeeded());
        }
        if (which.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("varies: " + String.join(", ", which) + " (above "
                + pct(RunStatistics.CV_WARNING) + "): about " + runsNeeded
                + " runs in all would bring the 95% CI of the mean within " + pct(RunStatistics.CV_WARNING));
    }

    private static double spread(RunStatistics runs) {
        double[] v = runs.values();
        return v.length == 0 ? 0 : v[v.length - 1] - v[0];
    }

    public static final String[] SCORE_HEAD = {
        "environment",
        "runs",
        "throughput requests/s (median of runs)",
        "ratio to baseline (baseline = 1)",
        "interval of the ratio",
        "verdict",
        "docker-proxy CPU % of one core (one core = 100) avg"
    };

    public static final String SCORE_NOTE =
            "The score of each environment (study 001's table): all samples' throughput, one value per run. "
                    + "Ratio = median of its runs / median of the baseline's. Interval: Bauer's distribution-free interval of the ratio (the "
                    + "Hodges-Lehmann interval on the log scale: the k-th smallest and largest of the ratios of each run to each baseline run; "
                    + "with 4 runs a side the lowest and highest, 97.1%); it assumes the environments differ by a factor, which a handful of "
                    + "runs cannot check. Verdict: the exact Mann-Whitney test of the across-runs table. docker-proxy: its CPU over the "
                    + "environment's runs (one core = 100), from the metrics file.";

    /** The score table: per environment, the total throughput against the baseline's with the ratio's interval; see {@link #SCORE_HEAD}. */
    public List<String[]> scoreRows() {
        List<String[]> rows = new ArrayList<>();
        RunStatistics base = acrossRuns
                .versusBaseline(baseline, Comparison.TOTAL, Figure.THROUGHPUT)
                .runs();
        for (String env : c.environments()) {
            Verdict t = verdict(env, Comparison.TOTAL, Figure.THROUGHPUT);
            if (t.runs().runs() == 0) {
                continue;
            }
            boolean isBaseline = env.equals(baseline);
            RatioOfRuns ratio = RatioOfRuns.of(t.runs(), base);
            String interval = isBaseline
                    ? ""
                    : ratio.available()
                            ? "[" + f2(ratio.low()) + ", " + f2(ratio.high()) + "] ("
                                    + Math.round(100 * ratio.confidence() * 10) / 10.0 + "%)"
                            : "needs 4+ runs a side";
            String proxy = metrics == null || !metrics.environments().contains(env)
                    ? "–"
                    : f1(metrics.summary(env, MetricName.DOCKER_PROXY_CPU).average());
            rows.add(new String[] {
                env,
                Long.toString(t.runs().runs()),
                f1(t.medianOfRuns()),
                isBaseline ? "1 (baseline)" : f2(ratio.ratio()),
                interval,
                isBaseline ? "baseline" : vsBaseline(t),
                proxy
            });
        }
        return rows;
    }

    /** The verdict; "too few runs" keeps to the change here, the note says why. */
    /** A figure outside the family: its change against the baseline and raw p, without a word on it. */
    private static String notJudged(Verdict v) {
        return v.kind() == Verdict.Kind.BASELINE || Double.isNaN(v.changePct())
                ? vsBaseline(v)
                : String.format(Locale.ROOT, "%+.1f%% (p=%.3f, %s)", v.changePct(), v.p(), NOT_JUDGED);
    }

    private static String vsBaseline(Verdict v) {
        return v.kind() == Verdict.Kind.TOO_FEW_RUNS ? v.mark() : v.text();
    }

    private static String ci(RunStatistics runs) {
        RunStatistics.MedianInterval ci = runs.medianCi95();
        return ci.available()
                ? "[" + f1(ci.low()) + ", " + f1(ci.high()) + "]"
                : "needs " + RunStatistics.runsNeededForMedianInterval() + "+ runs";
    }

    public static final String[] FILES_HEAD = {"run", "file", "environments", "samples"};

    public static final String FILES_NOTE =
            "Each result file is one run. A run is named after its file, or, where files share a name (run1/static-web.jtl, "
                    + "run2/static-web.jtl), by its path from the folder they share: two files are never pooled into one run.";

    /** Which file made which run (for runs read from files): run, file, its environments, its samples kept. */
    public List<String[]> fileRows() {
        List<String[]> rows = new ArrayList<>();
        c.runFiles().forEach((run, file) -> {
            List<String> envs = new ArrayList<>();
            long samples = 0;
            for (String env : c.environments()) {
                SampleStatistics t = c.get(env, run, Comparison.TOTAL);
                if (t != null) {
                    envs.add(env);
                    samples += t.count();
                }
            }
            rows.add(new String[] {run, file.toString(), String.join(", ", envs), Long.toString(samples)});
        });
        return rows;
    }

    public static final String[] RUN_HEAD = {
        "label",
        "environment",
        "runs",
        "throughput requests/s (median of runs)",
        "throughput 95% CI, requests/s",
        "throughput vs baseline (% change of medians)",
        "throughput CV (% of the mean)",
        "90% ms (median of runs)",
        "90% 95% CI, ms",
        "90% vs baseline (% change of medians)",
        "90% CV (% of the mean)",
        "note"
    };

    public static final String RUN_NOTE =
            "One value per run (JTL file): samples within a run follow each other and are not "
                    + "independent, so only repetitions decide whether a difference holds (benchstat's method). Median of runs with its "
                    + "95% confidence interval from order statistics (binomial; needs "
                    + RunStatistics.runsNeededForMedianInterval()
                    + " runs). vs baseline: change of the medians in %, with the exact two-sided Mann-Whitney U test on the per-run "
                    + "values (n = runs of each side), its p adjusted over the report's verdicts: a % where the adjusted p < "
                    + AcrossRuns.ALPHA
                    + ", \"~\" where not, with the smallest change detectable here. The change has no interval here: a "
                    + "distribution-free one for a ratio of medians needs a pure-shift assumption a handful of runs cannot check (the score "
                    + "table gives one for the total throughput, under that assumption). CV = standard deviation / mean of the runs; above "
                    + "3.5% the note says which figure varies and how many runs would bring the 95% interval of the mean within 3.5% (a "
                    + "90% line whose runs differ by no more than JMeter's 1 ms step is not said to vary). comparison.csv has the "
                    + "same for every figure (mean, median, p95, p99 and errorPct described with their raw p, \"not judged\").";

    public String markdown() {
        RunHeader top = parts.header;
        StringBuilder b = new StringBuilder("# ").append(top.title()).append("\n\n");
        notices.forEach(n -> b.append("> **").append(n).append("**\n\n"));
        top.facts()
                .forEach(f -> b.append("- **")
                        .append(f[0])
                        .append("**: ")
                        .append(oneLine(f[1]))
                        .append('\n'));
        b.append("- **baseline**: ").append(baseline).append("\n\n");
        if (!top.environments().isEmpty()) {
            b.append("## Environments\n\n");
            mdTable(b, RunHeader.ENVIRONMENTS_HEAD, top.environments());
            b.append('\n');
        }
        if (!top.criteria().isEmpty()) {
            b.append("## Criteria\n\n");
            mdTable(b, RunHeader.CRITERIA_HEAD, top.criteria());
            b.append('\n');
        }
        b.append(familyNote()).append("\n\n");
        calibrationNote().ifPresent(n -> b.append("**").append(n).append("**\n\n"));
        if (!noiseRows().isEmpty()) {
            b.append("## Noise floor: the smallest change these runs could show\n\n");
            mdTable(b, NOISE_HEAD, noiseRows());
            b.append('\n').append(NOISE_NOTE).append("\n\n");
        }
        b.append("## Headline: throughput against the baseline\n\n![")
                .append(ComparisonCharts.HEADLINE)
                .append("](charts/")
                .append(ComparisonCharts.HEADLINE)
                .append(".png)\n\n");
        if (c.environments().size() > 1) {
            mdTable(b, SCORE_HEAD, scoreRows());
            b.append('\n').append(SCORE_NOTE).append("\n\n");
        }
        b.append("## All labels\n\n");
        mdTable(b, TABLE_HEAD, tableRows());
        b.append('\n').append(TABLE_NOTE).append("\n\n## Across runs: which differences hold\n\n");
        mdTable(b, RUN_HEAD, runRows());
        b.append('\n').append(RUN_NOTE).append('\n');
        if (!fileRows().isEmpty()) {
            b.append("\n## Runs and their files\n\n");
            mdTable(b, FILES_HEAD, fileRows());
            b.append('\n').append(FILES_NOTE).append('\n');
        }
        if (!costRows().isEmpty()) {
            b.append("\n## CPU per request\n\n");
            mdTable(b, COST_HEAD, costRows());
            b.append('\n').append(COST_NOTE).append('\n');
        }
        if (!costLabelRows().isEmpty()) {
            b.append("\n## CPU per request by label (apportioned)\n\n");
            mdTable(b, COST_LABEL_HEAD, costLabelRows());
            b.append('\n').append(COST_LABEL_NOTE).append('\n');
        }
        if (!intendedRows().isEmpty()) {
            b.append("\n## Latency from the intended start (open model)\n\n");
            mdTable(b, INTENDED_HEAD, intendedRows());
            b.append('\n').append(INTENDED_NOTE).append('\n');
        }
        if (metrics != null) {
            b.append("\n## Resources over the run (metrics file)\n\n");
            mdTable(b, METRICS_HEAD, metricsRows());
            b.append('\n').append(METRICS_NOTE).append('\n');
            sourcesNote().ifPresent(n -> b.append('\n').append(n).append('\n'));
            List<String[]> services = servicesRows();
            if (!services.isEmpty()) {
                b.append("\n## Services apart (metrics file)\n\n");
                mdTable(b, SERVICES_HEAD, services);
                b.append('\n').append(SERVICES_NOTE).append('\n');
            }
        }
        if (!errors.isEmpty()) {
            b.append("\n## Errors by response code\n\n");
            mdTable(b, ERRORS_HEAD, errorRows());
            b.append('\n').append(ERRORS_NOTE).append('\n');
        }
        if (!hints.isEmpty()) {
            b.append("\n## Hints\n\n");
            hints.forEach(h -> b.append("- ").append(h).append('\n'));
        }
        return b.toString();
    }

    /** The table (and resources, with a metrics file) as plain text for a terminal: summary's output. */
    public String text() {
        RunHeader top = parts.header;
        StringBuilder b = new StringBuilder();
        if (!top.facts().isEmpty()) {
            b.append(top.title()).append('\n');
            top.facts()
                    .forEach(f -> b.append("  ")
                            .append(f[0])
                            .append(": ")
                            .append(oneLine(f[1]))
                            .append('\n'));
        }
        notices.forEach(n -> b.append(n).append('\n'));
        if (!top.criteria().isEmpty()) {
            textTable(b, RunHeader.CRITERIA_HEAD, top.criteria(), 2);
        }
        b.append(familyNote()).append('\n');
        calibrationNote().ifPresent(n -> b.append(n).append('\n'));
        textTable(b, TABLE_HEAD, tableRows(), 2);
        b.append('\n').append(TABLE_NOTE).append('\n');
        if (!fileRows().isEmpty()) {
            b.append("\nRuns and their files:\n");
            textTable(b, FILES_HEAD, fileRows(), 3);
        }
        if (!costRows().isEmpty()) {
            b.append("\nCPU per request:\n");
            textTable(b, COST_HEAD, costRows(), 1);
        }
        if (!costLabelRows().isEmpty()) {
            b.append("\nCPU per request by label (apportioned by response time; not judged):\n");
            textTable(b, COST_LABEL_HEAD, costLabelRows(), 2);
        }
        if (!intendedRows().isEmpty()) {
            b.append("\nLatency from the intended start (open model; JMeter's figures count from the actual start):\n");
            textTable(b, INTENDED_HEAD, intendedRows(), 1);
        }
        if (metrics != null) {
            b.append("\nResources (metrics file):\n");
            textTable(b, METRICS_HEAD, metricsRows(), 1);
            b.append('\n').append(METRICS_NOTE).append('\n');
            sourcesNote().ifPresent(n -> b.append(n).append('\n'));
            List<String[]> services = servicesRows();
            if (!services.isEmpty()) {
                b.append("\nServices apart (metrics file):\n");
                textTable(b, SERVICES_HEAD, services, 2);
                b.append('\n').append(SERVICES_NOTE).append('\n');
            }
        }
        if (!errors.isEmpty()) {
            b.append("\nErrors by response code:\n");
            textTable(b, ERRORS_HEAD, errorRows(), 4);
            b.append('\n').append(ERRORS_NOTE).append('\n');
        }
        if (!hints.isEmpty()) {
            b.append("\nHints:\n");
            hints.forEach(h -> b.append("  ").append(h).append('\n'));
        }
        return b.toString();
    }

    /** @param names how many leading columns are names (left-aligned); figures are right-aligned, as in JMeter's tables */
    private static void textTable(StringBuilder b, String[] head, List<String[]> rows, int names) {
        List<String[]> all = new ArrayList<>();
        all.add(head);
        rows.forEach(
                r -> all.add(Arrays.stream(r).map(ComparisonReport::oneLine).toArray(String[]::new)));
        int[] width = new int[head.length];
        for (String[] r : all) {
            for (int i = 0; i < head.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : all) {
            for (int i = 0; i < r.length; i++) {
                String cell = i < names
                        ? String.format("%-" + width[i] + "s", r[i])
                        : String.format("%" + width[i] + "s", r[i]);
                b.append(i == 0 ? "" : "  ").append(cell);
            }
            b.append('\n');
        }
    }

    private static void mdTable(StringBuilder b, String[] head, List<String[]> rows) {
        b.append("| ").append(String.join(" | ", head)).append(" |\n|");
        b.append("---|".repeat(head.length)).append('\n');
        for (String[] r : rows) {
            b.append("| ")
                    .append(String.join(
                            " | ",
                            Arrays.stream(r)
                                    .map(x -> oneLine(x).replace("|", "\\|"))
                                    .toList()))
                    .append(" |\n");
        }
    }

    /** Cells longer than this fold into a {@code <details>} in HTML, so the widest table fits a 1280 px window. */
    static final int HTML_FOLD_CHARS = 28;

    /**
     * The report as one page: the header (title, facts, environments, criteria, noise floor) and the headline chart
     * first, then the tables, then every chart.
     *
     * @param chartNames the charts written beside it, in {@code charts/}; the {@link ComparisonCharts#HEADLINE} among
     *                   them is also shown under the header
     */
    public String html(Iterable<String> chartNames) {
        RunHeader top = parts.header;
        StringBuilder b = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
                .append(esc(top.title()))
                .append("</title>\n")
                .append("<style>body{font-family:sans-serif;margin:1.5em;max-width:1220px}"
                        + "table{border-collapse:collapse;margin:1em 0;max-width:100%}"
                        + "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right;overflow-wrap:anywhere}"
                        + "td:nth-child(-n+2),th{text-align:left}th{background:#eee;font-weight:normal}"
                        + "table.facts td{text-align:left}table.facts td:first-child{font-weight:bold}"
                        + "details summary{cursor:pointer}.note{color:#555;max-width:70em}.bad{color:#b00}"
                        + ".pass{color:#070;font-weight:bold}.fail{color:#b00;font-weight:bold}"
                        + "img{max-width:100%;height:auto}</style></head><body>\n")
                .append("<h1>")
                .append(esc(top.title()))
                .append("</h1>\n");
        notices.forEach(n -> b.append("<p class=\"bad\"><b>").append(esc(n)).append("</b></p>\n"));
        b.append("<table class=\"facts\">\n");
        top.facts()
                .forEach(f -> b.append("<tr><td>")
                        .append(esc(f[0]))
                        .append("</td><td>")
                        .append(esc(f[1]))
                        .append("</td></tr>\n"));
        b.append("<tr><td>baseline</td><td>")
                .append(esc(baseline))
                .append("</td></tr>\n<tr><td>environments</td><td>")
                .append(esc(String.join(", ", c.environments())))
                .append("</td></tr>\n</table>\n");
        if (!top.environments().isEmpty()) {
            b.append("<h2>Environments</h2>\n");
            htmlTable(b, RunHeader.ENVIRONMENTS_HEAD, top.environments(), Integer.MAX_VALUE);
        }
        if (!top.criteria().isEmpty()) {
            b.append("<h2>Criteria</h2>\n<table><tr>");
            for (String head : RunHeader.CRITERIA_HEAD) {
                b.append("<th>").append(esc(head)).append("</th>");
            }
            b.append("</tr>\n");
            for (String[] r : top.criteria()) {
                b.append("<tr><td>")
                        .append(esc(r[0]))
                        .append("</td><td class=\"")
                        .append(RunHeader.PASS.equals(r[1]) ? "pass" : "fail")
                        .append("\">")
                        .append(esc(r[1]))
                        .append("</td><td style=\"text-align:left\">")
                        .append(esc(r[2]))
                        .append("</td></tr>\n");
            }
            b.append("</table>\n");
        }
        b.append("<p>").append(esc(familyNote())).append("</p>\n");
        calibrationNote().ifPresent(n -> b.append("<p><b>").append(esc(n)).append("</b></p>\n"));
        if (!noiseRows().isEmpty()) {
            b.append("<h2>Noise floor: the smallest change these runs could show</h2>\n");
            htmlTable(b, NOISE_HEAD, noiseRows());
            b.append("<p class=\"note\">").append(esc(NOISE_NOTE)).append("</p>\n");
        }
        b.append("<h2>Headline: throughput against the baseline</h2>\n");
        for (String name : chartNames) {
            if (name.equals(ComparisonCharts.HEADLINE)) {
                figure(b, name);
            }
        }
        if (c.environments().size() > 1) {
            htmlTable(b, SCORE_HEAD, scoreRows());
            b.append("<p class=\"note\">").append(esc(SCORE_NOTE)).append("</p>\n");
        }
        b.append("<h2>All labels</h2>\n");
        htmlTable(b, TABLE_HEAD, tableRows());
        b.append("<p class=\"note\">")
                .append(esc(TABLE_NOTE))
                .append("</p>\n<h2>Across runs: which differences hold</h2>\n");
        htmlTable(b, RUN_HEAD, runRows(), HTML_FOLD_CHARS); // the widest table: its long cells fold
        b.append("<p class=\"note\">").append(esc(RUN_NOTE)).append("</p>\n");
        if (!fileRows().isEmpty()) {
            b.append("<h2>Runs and their files</h2>\n");
            htmlTable(b, FILES_HEAD, fileRows());
            b.append("<p class=\"note\">").append(esc(FILES_NOTE)).append("</p>\n");
        }
        if (!costRows().isEmpty()) {
            b.append("<h2>CPU per request</h2>\n");
            htmlTable(b, COST_HEAD, costRows());
            b.append("<p class=\"note\">").append(esc(COST_NOTE)).append("</p>\n");
        }
        if (!costLabelRows().isEmpty()) {
            b.append("<h2>CPU per request by label (apportioned)</h2>\n");
            htmlTable(b, COST_LABEL_HEAD, costLabelRows());
            b.append("<p class=\"note\">").append(esc(COST_LABEL_NOTE)).append("</p>\n");
        }
        if (!intendedRows().isEmpty()) {
            b.append("<h2>Latency from the intended start (open model)</h2>\n");
            htmlTable(b, INTENDED_HEAD, intendedRows());
            b.append("<p class=\"note\">").append(esc(INTENDED_NOTE)).append("</p>\n");
        }
        if (metrics != null) {
            b.append("<h2>Resources over the run (metrics file)</h2>\n");
            htmlTable(b, METRICS_HEAD, metricsRows());
            b.append("<p class=\"note\">").append(esc(METRICS_NOTE)).append("</p>\n");
            sourcesNote()
                    .ifPresent(
                            n -> b.append("<p class=\"note\">").append(esc(n)).append("</p>\n"));
            List<String[]> services = servicesRows();
            if (!services.isEmpty()) {
                b.append("<h2>Services apart (metrics file)</h2>\n");
                htmlTable(b, SERVICES_HEAD, services);
                b.append("<p class=\"note\">").append(esc(SERVICES_NOTE)).append("</p>\n");
            }
        }
        if (!errors.isEmpty()) {
            b.append("<h2>Errors by response code</h2>\n");
            htmlTable(b, ERRORS_HEAD, errorRows());
            b.append("<p class=\"note\">").append(esc(ERRORS_NOTE)).append("</p>\n");
        }
        if (!hints.isEmpty()) {
            b.append("<h2>Hints</h2>\n<ul>\n");
            hints.forEach(h -> b.append("<li>").append(esc(h)).append("</li>\n"));
            b.append("</ul>\n");
        }
        b.append("<h2>Charts</h2>\n");
        for (String name : chartNames) {
            figure(b, name);
        }
        b.append(
                "<p>Also: <a href=\"comparison.csv\">comparison.csv</a>, <a href=\"comparison.md\">comparison.md</a></p>\n</body></html>\n");
        return b.toString();
    }

    private static void figure(StringBuilder b, String name) {
        b.append("<figure><img src=\"charts/")
                .append(name)
                .append(".png\" width=\"")
                .append(CHART_WIDTH)
                .append("\" alt=\"")
                .append(name)
                .append("\"><figcaption>")
                .append(name)
                .append(": <a href=\"charts/")
                .append(name)
                .append(".png\">PNG</a> <a href=\"charts/")
                .append(name)
                .append(".svg\">SVG</a> <a href=\"charts/")
                .append(name)
                .append(".pdf\">PDF</a></figcaption></figure>\n");
    }

    private static void htmlTable(StringBuilder b, String[] head, List<String[]> rows) {
        htmlTable(b, head, rows, Integer.MAX_VALUE);
    }

    /** @param foldChars cells longer than this show their start, the whole in a {@code <details>} */
    private static void htmlTable(StringBuilder b, String[] head, List<String[]> rows, int foldChars) {
        b.append("<table><tr>");
        for (String h : head) {
            b.append("<th>").append(esc(h)).append("</th>");
        }
        b.append("</tr>\n");
        for (String[] r : rows) {
            b.append("<tr>");
            for (String v : r) {
                b.append(
                                v.contains("too few runs") || v.contains("varies") || v.contains("generator-bound")
                                        ? "<td class=\"bad\">"
                                        : "<td>")
                        .append(v.length() > foldChars ? folded(v, foldChars) : esc(v))
                        .append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n");
    }

    /** A long cell as its first words, the whole when opened: "+12.3% (p=0.008 …" then the rest. */
    static String folded(String cell, int chars) {
        int cut = cell.lastIndexOf(' ', chars);
        String start = cell.substring(0, cut > 0 ? cut : chars);
        return "<details><summary>" + esc(start) + " …</summary>" + esc(cell) + "</details>";
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String f1(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String f2(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String pct(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
    }
}
