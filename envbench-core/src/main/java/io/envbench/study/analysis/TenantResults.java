package io.envbench.study.analysis;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.Metrics;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.JtlReader;
import io.envbench.measure.results.Sample;
import io.envbench.measure.stats.AcrossRuns;
import io.envbench.measure.stats.Comparison;
import io.envbench.measure.stats.Correction;
import io.envbench.measure.stats.Figure;
import io.envbench.measure.stats.RunStatistics;
import io.envbench.measure.stats.SampleStatistics;
import io.envbench.measure.stats.Verdict;
import io.envbench.measure.stats.VerdictFamily;
import io.envbench.study.experiment.CapacitySpec;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.FigureSource;
import io.envbench.study.experiment.Tenancy;
import io.envbench.study.experiment.TenantPlan;
import net.jcip.annotations.NotThreadSafe;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * The figures of a multi-tenant run directory, per configuration x tenant: each completed run gives one value of each
 * figure per tenant (its samples after the warm-up, all labels together; its container's CPU from the run's metrics
 * file over the same time), and the table shows the mean of the runs with its 95% interval (Student's t over the
 * per-run values, {@link RunStatistics#ciHalfWidth95()}) and, against the baseline configuration, the verdict of the
 * exact Mann-Whitney test on the per-run values ({@link AcrossRuns}); never a verdict from samples. Also the host's
 * CPU per configuration. Not thread-safe: its comparisons cache what they pool on first use; one thread reads it.
 */
@NotThreadSafe
public final class TenantResults {
    /**
     * One configuration x tenant.
     *
     * @param throughput requests per second of each run (JMeter's: count / (last end - first start))
     * @param meanMs     mean response time of each run
     * @param p90Ms      the 90% line of each run as JMeter's Aggregate Report computes it (nearest rank)
     * @param errorPct   failed requests in % of each run
     * @param cpuPct     the tenant's container CPU of each run, its average after the warm-up; one core = 100
     * @param throughputVsBaseline the verdict of throughput against the baseline configuration's, from the per-run values
     * @param meanVsBaseline       the same for the mean response time
     */
    public record Row(
            String configuration,
            String tenant,
            RunStatistics throughput,
            RunStatistics meanMs,
            RunStatistics p90Ms,
            RunStatistics errorPct,
            RunStatistics cpuPct,
            Verdict throughputVsBaseline,
            Verdict meanVsBaseline) {}

    private final Experiment experiment;
    /** Per tenant, its samples after the warm-up as a comparison whose environments are the configurations. */
    private final Map<String, Comparison> perTenant;

    private final List<Row> rows;
    private final Map<String, RunStatistics> hostCpuPct;
    private final Comparison byTenant;

    private TenantResults(
            Experiment experiment,
            Map<String, Comparison> perTenant,
            List<Row> rows,
            Map<String, RunStatistics> hostCpuPct,
            Comparison byTenant) {
        this.experiment = experiment;
        this.perTenant = Map.copyOf(perTenant);
        this.rows = List.copyOf(rows);
        this.hostCpuPct = Map.copyOf(hostCpuPct);
        this.byTenant = byTenant;
    }

    /**
     * The samples after the warm-up as a comparison whose environments are the configurations and whose labels are the
     * tenants (each tenant's requests, all its pages together): the report's bar charts of it are the paper's, a bar
     * per tenant and configuration.
     */
    public Comparison configurationsByTenant() {
        return byTenant;
    }

    /** Reads the completed runs of a multi-tenant run directory. */
    public static TenantResults read(RunDirectory dir, Experiment e, List<RunRecord> runs) throws IOException {
        Reading reading = new Reading(e);
        for (RunRecord r : runs) {
            if (!Reading.counts(r)) {
                continue;
            }
            JtlReader.read(dir.jtl(r.run()), reading.samplesOf(r));
            reading.metricsOf(r, dir.metrics(r.run()));
        }
        return reading.results();
    }

    /**
     * The figures taken in as a run directory is read: fed each completed run's samples and its metrics file, in the
     * runs' order, by whoever reads them, so that a reader that needs the samples for other figures too
     * ({@link RunResults}) reads each JTL once for both.
     */
    @NotThreadSafe
    static final class Reading {
        private final Experiment e;
        private final Tenancy tenancy;
        private final long warmupMs;
        // per tenant, a comparison whose "environments" are the configurations: the verdicts come from its runs
        private final Map<String, Comparison> byTenant = new LinkedHashMap<>();
        /** Tenant -> configuration -> per-run averages. */
        private final Map<String, Map<String, List<Double>>> cpu = new LinkedHashMap<>();

        private final Map<String, List<Double>> host = new LinkedHashMap<>();
        private final Comparison configurationsByTenant = new Comparison();
        // its labels (the tenants) take the order of their first samples: the first samples wait until every tenant
        // has been seen, then go in tenant-1 .. tenant-N order (a handful: all tenants start at once)
        private final List<String> names;
        private final List<Sample> firstSamples = new ArrayList<>();
        private final List<String> firstRuns = new ArrayList<>();
        private final Set<String> seen = new HashSet<>();
        private boolean ordered;

        Reading(Experiment e) {
            this.e = e;
            this.tenancy = e.tenancy()
                    .orElseThrow(() -> new IllegalArgumentException(e.name() + " is not a multi-tenant experiment"));
            this.warmupMs = e.load().warmup().toMillis();
            this.names = tenancy.tenantNames();
            tenancy.tenantNames().forEach(t -> byTenant.put(t, new Comparison()));
        }

        /** Whether a run gives figures: it completed and has samples. */
        static boolean counts(RunRecord r) {
            return r.ok() && r.firstSample() != null;
        }

        private void addInTenantOrder() {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < firstSamples.size(); i++) {
                order.add(i);
            }
            order.sort(Comparator.comparingInt(
                    i -> names.indexOf(firstSamples.get(i).label())));
            order.forEach(i -> configurationsByTenant.add(firstSamples.get(i), firstRuns.get(i)));
            firstSamples.clear();
            ordered = true;
        }

        /** Takes in the samples of run {@code r}'s JTL, each as the JTL has it. */
        Consumer<Sample> samplesOf(RunRecord r) {
            long cutoff = r.firstSample().toEpochMilli() + warmupMs;
            String configuration = r.run().environment();
            String runId = r.run().id();
            return s -> {
                Comparison c = byTenant.get(s.environment());
                if (c != null && s.startMs() >= cutoff) {
                    c.add(
                            new Sample(
                                    configuration,
                                    s.label(),
                                    s.startMs(),
                                    s.elapsedMs(),
                                    s.success(),
                                    s.receivedBytes(),
                                    s.sentBytes()),
                            runId);
                    Sample asTenant = new Sample(
                            configuration,
                            s.environment(),
                            s.startMs(),
                            s.elapsedMs(),
                            s.success(),
                            s.receivedBytes(),
                            s.sentBytes());
                    if (ordered) {
                        configurationsByTenant.add(asTenant, runId);
                    } else {
                        firstSamples.add(asTenant);
                        firstRuns.add(runId);
                        seen.add(s.environment());
                        if (seen.size() == names.size()) {
                            addInTenantOrder();
                        }
                    }
                }
            };
        }

        /** Takes in run {@code r}'s metrics file, when it has one. */
        void metricsOf(RunRecord r, Path metrics) throws IOException {
            if (!Files.isRegularFile(metrics)) {
                return;
            }
            long cutoff = r.firstSample().toEpochMilli() + warmupMs;
            String configuration = r.run().environment();
            Map<String, double[]> sums = new LinkedHashMap<>(); // column -> {sum, count}
            List<String> columns = new ArrayList<>(tenancy.tenantNames().stream()
                    .map(t -> Metrics.containerColumns(t).cpuPct())
                    .toList());
            columns.add(MetricName.HOST_CPU.column());
            MetricsFile.forEachRow(metrics, row -> {
                if (row.epochMs() < cutoff) {
                    return;
                }
                for (String c : columns) {
                    Double v = row.values().get(c);
                    if (v != null && !v.isNaN()) {
                        double[] s = sums.computeIfAbsent(c, k -> new double[2]);
                        s[0] += v;
                        s[1]++;
                    }
                }
            });
            for (String t : tenancy.tenantNames()) {
                double[] s = sums.get(Metrics.containerColumns(t).cpuPct());
                if (s != null) {
                    cpu.computeIfAbsent(t, k -> new LinkedHashMap<>())
                            .computeIfAbsent(configuration, k -> new ArrayList<>())
                            .add(s[0] / s[1]);
                }
            }
            double[] h = sums.get(MetricName.HOST_CPU.column());
            if (h != null) {
                host.computeIfAbsent(configuration, k -> new ArrayList<>()).add(h[0] / h[1]);
            }
        }

        /** The figures of every run taken in; call once, after the last. */
        TenantResults results() {
            if (!ordered) {
                addInTenantOrder(); // a tenant without samples
            }
            List<Row> rows = new ArrayList<>();
            for (String configuration : tenancy.configurationNames()) {
                for (String tenant : tenancy.tenantNames()) {
                    Comparison c = byTenant.get(tenant);
                    boolean baselineRan = c.environments().contains(e.baseline());
                    AcrossRuns across = new AcrossRuns(c, baselineRan ? e.baseline() : null);
                    // a configuration naming its own scenario may give the tenant another load than the baseline's:
                    // no verdict compares a low tenant with a high one
                    boolean ran = c.environments().contains(configuration)
                            && sameLoad(tenancy, tenant, configuration, e.baseline());
                    rows.add(new Row(
                            configuration,
                            tenant,
                            c.acrossRuns(configuration, Comparison.TOTAL, Figure.THROUGHPUT),
                            c.acrossRuns(configuration, Comparison.TOTAL, Figure.MEAN),
                            c.acrossRuns(configuration, Comparison.TOTAL, SampleStatistics::aggregateReport90Ms),
                            c.acrossRuns(configuration, Comparison.TOTAL, Figure.ERROR_PCT),
                            RunStatistics.of(cpu.getOrDefault(tenant, Map.of()).getOrDefault(configuration, List.of())),
                            ran && baselineRan
                                    ? across.versusBaseline(configuration, Comparison.TOTAL, Figure.THROUGHPUT)
                                    : null,
                            ran && baselineRan
                                    ? across.versusBaseline(configuration, Comparison.TOTAL, Figure.MEAN)
                                    : null));
                }
            }
            rows = judgedTogether(rows, e.correction());
            Map<String, RunStatistics> hostStats = new LinkedHashMap<>();
            tenancy.configurationNames()
                    .forEach(c -> hostStats.put(c, RunStatistics.of(host.getOrDefault(c, List.of()))));
            return new TenantResults(e, byTenant, rows, hostStats, configurationsByTenant);
        }
    }

    /** Whether {@code tenant} runs the same load (threads, rate, goal, high or low) under both configurations. */
    static boolean sameLoad(Tenancy tenancy, String tenant, String configuration, String other) {
        if (!tenancy.configurationNames().contains(other)) {
            return true;
        }
        int i = tenancy.tenantNames().indexOf(tenant);
        if (i < 0) {
            return true;
        }
        TenantPlan a =
                tenancy.tenantsUnder(tenancy.configuration(configuration)).get(i);
        TenantPlan b = tenancy.tenantsUnder(tenancy.configuration(other)).get(i);
        return a.threads() == b.threads()
                && a.requestsPerSecond() == b.requestsPerSecond()
                && a.responseTimeGoalMs().equals(b.responseTimeGoalMs())
                && a.high() == b.high();
    }

    /** The rows with every verdict of the table judged in one family, as one report states them. */
    private static List<Row> judgedTogether(List<Row> rows, Correction correction) {
        List<Verdict> all = new ArrayList<>();
        for (Row r : rows) {
            for (Verdict v : new Verdict[] {r.throughputVsBaseline(), r.meanVsBaseline()}) {
                if (v != null) {
                    all.add(v);
                }
            }
        }
        Map<Verdict, Verdict> judged = new IdentityHashMap<>();
        // tenants share configuration, label and figure: judged as a list, looked up by the verdict it came from
        List<Verdict> inFamily = VerdictFamily.judge(all, correction);
        for (int i = 0; i < all.size(); i++) {
            judged.put(all.get(i), inFamily.get(i));
        }
        return rows.stream()
                .map(r -> new Row(
                        r.configuration(),
                        r.tenant(),
                        r.throughput(),
                        r.meanMs(),
                        r.p90Ms(),
                        r.errorPct(),
                        r.cpuPct(),
                        r.throughputVsBaseline() == null ? null : judged.get(r.throughputVsBaseline()),
                        r.meanVsBaseline() == null ? null : judged.get(r.meanVsBaseline())))
                .toList();
    }

    /**
     * The figures a multi-tenant experiment's criteria are evaluated on: {@code CONFIGURATION/TENANT} ({@code
     * p90(dynamic/tenant-1)}) is the median over that configuration's runs of the tenant's per-run figure after the
     * warm-up, for its samples of a label or all of them ({@link io.envbench.study.experiment.Criterion#TOTAL}), the same
     * figures as the tenants table.
     */
    public FigureSource figures() {
        List<String> names = experiment.tenancy().orElseThrow().criterionNames();
        return new FigureSource() {
            @Override
            public OptionalDouble value(String environment, String label, String figure) {
                int slash = environment.indexOf('/');
                Comparison c = slash < 0 ? null : perTenant.get(environment.substring(slash + 1));
                String configuration = slash < 0 ? "" : environment.substring(0, slash);
                if (c == null || !c.environments().contains(configuration)) {
                    return OptionalDouble.empty();
                }
                return new AcrossRuns(c, null).criterionFigure(configuration, label, figure);
            }

            @Override
            public Set<String> environments() {
                return new LinkedHashSet<>(names);
            }
        };
    }

    /** In the file's order: each configuration's tenants tenant-1 .. tenant-N. */
    public List<Row> rows() {
        return rows;
    }

    /** The host's CPU of each run (0-100, all CPUs = 100), its average after the warm-up, by configuration. */
    public RunStatistics hostCpuPct(String configuration) {
        return hostCpuPct.get(configuration);
    }

    /** Whether any run gave figures. */
    public boolean hasFigures() {
        return rows.stream().anyMatch(r -> r.throughput().runs() > 0);
    }

    /**
     * Tenants held back by their own thread count rather than by the machine, one line each: a closed group of threads
     * sends at most threads / response time requests a second, so a tenant whose rate was not reached while that
     * ceiling sat at or below it measured its JMeter thread group, not its share of the CPUs (a tenant of 4 threads
     * answering in 63.7 ms cannot pass 63/s, whatever CPU it is given). A high tenant is left out: it asks more than the
     * machine serves by design, so its queued threads always make the ceiling equal what it got. Empty when none was.
     */
    public List<String> threadBound() {
        Map<String, TenantPlan> plans = new LinkedHashMap<>();
        experiment
                .tenancy()
                .ifPresent(t -> t.configurations()
                        .forEach(c -> t.tenantsUnder(c).forEach(p -> plans.put(c.name() + "/" + p.name(), p))));
        List<String> held = new ArrayList<>();
        for (Row r : rows) {
            TenantPlan plan = plans.get(r.configuration() + "/" + r.tenant());
            double asked = plan == null ? 0 : plan.requestsPerSecond();
            double got = r.throughput().median();
            double meanMs = r.meanMs().median();
            // a high tenant asks more than the machine serves, so its threads always queue and threads / response
            // time equals what it got (Little's law): the check cannot tell threads from CPU there
            if (!(asked > 0) || !(meanMs > 0) || Double.isNaN(got) || plan.high()) {
                continue;
            }
            double ceiling = plan.threads() * 1000 / meanMs;
            if (got < CapacitySpec.KEPT * asked && ceiling <= asked * (2 - CapacitySpec.KEPT)) {
                held.add(String.format(
                        Locale.ROOT,
                        "%s under %s: %.1f/s of %.1f/s asked; %d threads at %.1f ms each send at most %.1f/s: give it"
                                + " more than %.0f threads (rate x response time)",
                        r.tenant(),
                        r.configuration(),
                        got,
                        asked,
                        plan.threads(),
                        meanMs,
                        ceiling,
                        Math.ceil(asked * meanMs / 1000)));
            }
        }
        return held;
    }

    /**
     * A verdict cell of a tenant whose load under its configuration differs from its load under the baseline (a
     * configuration naming its own scenario): a low tenant is not compared with a high one.
     */
    public static final String OTHER_LOAD = "other load";

    /** The per-tenant table's head, as {@link #text()}, {@link #markdown()} and a view's table show it. */
    public static final String[] HEADER = {
        "configuration",
        "tenant",
        "runs",
        "throughput /s",
        "mean ms",
        "90% line ms (Aggregate Report)",
        "error %",
        "CPU % (1 core = 100)",
        "throughput vs baseline",
        "mean vs baseline"
    };

    private static final String HOST_HEADER = "host CPU % (all CPUs = 100)";

    /** The per-tenant table's cells ({@link #HEADER}), a row per configuration x tenant: the one layout of text, Markdown and a view. */
    public List<String[]> tableRows() {
        return rows.stream().map(this::cells).toList();
    }

    /** The table as text, columns aligned: each figure the mean of the runs ± the half-width of its 95% interval. */
    public String text() {
        List<String[]> cells = new ArrayList<>();
        cells.add(HEADER);
        cells.addAll(tableRows());
        StringBuilder s = new StringBuilder();
        s.append("Per tenant (")
                .append(experiment.name())
                .append("; mean of runs ± 95% interval, Student's t; warm-up of ")
                .append(experiment.load().warmup().toSeconds())
                .append(" s left out; verdicts from the per-run values vs ")
                .append(experiment.baseline())
                .append("):\n");
        s.append(align(cells));
        List<String[]> host = new ArrayList<>();
        host.add(new String[] {"configuration", "runs", HOST_HEADER});
        for (String c : experiment.environmentNames()) {
            RunStatistics h = hostCpuPct.get(c);
            host.add(new String[] {c, Long.toString(h.runs()), interval(h, 1)});
        }
        s.append('\n').append(align(host));
        if (tableRows().stream().anyMatch(r -> r[r.length - 1].equals(OTHER_LOAD))) {
            s.append("\n").append(otherLoadNote()).append('\n');
        }
        List<String> held = threadBound();
        if (!held.isEmpty()) {
            s.append("\nHeld by their own threads, not by the machine:\n");
            held.forEach(h -> s.append("  ").append(h).append('\n'));
        }
        return s.toString();
    }

    private String otherLoadNote() {
        return "\"" + OTHER_LOAD + "\": the tenant runs another load under that configuration's scenario than under "
                + experiment.baseline() + " (low against high), so it has no verdict against it.";
    }

    /** The same tables in Markdown. */
    public String markdown() {
        StringBuilder s = new StringBuilder(
                "## Per tenant\n\nMean of runs ± 95% interval (Student's t over the per-run values); the "
                        + "warm-up left out; 90% line as JMeter's Aggregate Report (nearest rank); CPU of each tenant's container (one core = 100); "
                        + "verdicts against `" + experiment.baseline()
                        + "` from the per-run values (exact Mann-Whitney).\n\n");
        s.append(markdownRow(HEADER))
                .append(markdownRow(Collections.nCopies(HEADER.length, "---").toArray(String[]::new)));
        tableRows().forEach(r -> s.append(markdownRow(r)));
        s.append("\n| configuration | runs | ").append(HOST_HEADER).append(" |\n|---|---|---|\n");
        for (String c : experiment.environmentNames()) {
            RunStatistics h = hostCpuPct.get(c);
            s.append("| ")
                    .append(c)
                    .append(" | ")
                    .append(h.runs())
                    .append(" | ")
                    .append(interval(h, 1))
                    .append(" |\n");
        }
        if (tableRows().stream().anyMatch(r -> r[r.length - 1].equals(OTHER_LOAD))) {
            s.append("\n").append(otherLoadNote()).append('\n');
        }
        List<String> held = threadBound();
        if (!held.isEmpty()) {
            s.append("\n**Held by their own threads, not by the machine:**\n\n");
            held.forEach(h -> s.append("- ").append(h).append('\n'));
        }
        return s.toString();
    }

    /**
     * {@code tenants.csv}: a row per configuration x tenant with each figure's mean of runs, 95% half-width and per-run
     * values (space-separated), then the host's CPU in rows of tenant {@code host}.
     */
    public void writeCsv(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                CSVPrinter csv = new CSVPrinter(
                        w, CSVFormat.DEFAULT.builder().setRecordSeparator('\n').build())) {
            List<String> header = new ArrayList<>(List.of("configuration", "tenant", "runs"));
            for (String f : List.of("throughput", "meanMs", "p90AggregateMs", "errorPct", "cpuPct")) {
                header.addAll(List.of(f + "Mean", f + "Ci95HalfWidth", f + "PerRun"));
            }
            header.addAll(List.of("throughputVsBaseline", "meanVsBaseline"));
            csv.printRecord(header);
            for (Row r : rows) {
                List<Object> out = new ArrayList<>(
                        List.of(r.configuration(), r.tenant(), r.throughput().runs()));
                for (RunStatistics st : List.of(r.throughput(), r.meanMs(), r.p90Ms(), r.errorPct(), r.cpuPct())) {
                    out.addAll(List.of(number(st.mean()), number(st.ciHalfWidth95()), perRun(st)));
                }
                out.add(
                        r.throughputVsBaseline() == null
                                ? ""
                                : r.throughputVsBaseline().mark());
                out.add(r.meanVsBaseline() == null ? "" : r.meanVsBaseline().mark());
                csv.printRecord(out);
            }
            for (String c : experiment.environmentNames()) {
                RunStatistics h = hostCpuPct.get(c);
                List<Object> out = new ArrayList<>(List.of(c, "host", h.runs()));
                for (int i = 0; i < 4; i++) {
                    out.addAll(List.of("", "", ""));
                }
                out.addAll(List.of(number(h.mean()), number(h.ciHalfWidth95()), perRun(h), "", ""));
                csv.printRecord(out);
            }
        }
    }

    private String[] cells(Row r) {
        String notCompared = experiment
                        .tenancy()
                        .filter(t -> !sameLoad(t, r.tenant(), r.configuration(), experiment.baseline()))
                        .isPresent()
                ? OTHER_LOAD
                : "";
        Function<Verdict, String> mark = v -> v == null ? notCompared : v.mark();
        return new String[] {
            r.configuration(),
            r.tenant(),
            Long.toString(r.throughput().runs()),
            interval(r.throughput(), 1),
            interval(r.meanMs(), 2),
            interval(r.p90Ms(), 1),
            interval(r.errorPct(), 2),
            interval(r.cpuPct(), 1),
            mark.apply(r.throughputVsBaseline()),
            mark.apply(r.meanVsBaseline())
        };
    }

    /** {@code 123.4 ± 5.6}; one run: the value alone; none: {@code -}. */
    static String interval(RunStatistics s, int decimals) {
        if (s == null || s.runs() == 0) {
            return "-";
        }
        String f = "%." + decimals + "f";
        double half = s.ciHalfWidth95();
        return Double.isNaN(half)
                ? String.format(Locale.ROOT, f, s.mean())
                : String.format(Locale.ROOT, f + " ± " + f, s.mean(), half);
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
    }

    private static String perRun(RunStatistics s) {
        StringBuilder b = new StringBuilder();
        for (double v : s.values()) {
            b.append(b.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.4f", v));
        }
        return b.toString();
    }

    private static String markdownRow(String[] cells) {
        return "| " + String.join(" | ", cells) + " |\n";
    }

    private static String align(List<String[]> rows) {
        int[] width = new int[rows.get(0).length];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder s = new StringBuilder();
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                s.append(i == 0 ? "" : "  ").append(i < 2 ? pad(r[i], width[i], false) : pad(r[i], width[i], true));
            }
            s.append('\n');
        }
        return s.toString();
    }

    private static String pad(String s, int width, boolean right) {
        String fill = " ".repeat(Math.max(0, width - s.length()));
        return right ? fill + s : s + fill;
    }
}
