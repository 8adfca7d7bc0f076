package io.envbench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.commons.math3.stat.inference.TTest;
import org.jfree.chart.JFreeChart;

import io.envbench.stats.Comparison;
import io.envbench.stats.MannWhitney;
import io.envbench.stats.RunStatistics;
import io.envbench.stats.SampleStatistics;

/**
 * The comparison as documents: {@code comparison.csv} (one row per environment x label),
 * {@code comparison.md}, a self-contained {@code index.html} and every chart as PNG, SVG and PDF.
 */
public final class ComparisonReport {
    public static final String CSV_HEADER =
            "env,label,count,mean,median,p90,p95,p99,min,max,errorPct,throughput,receivedKBps,sentKBps,aggregateReport90";
    public static final double ALPHA = 0.05;
    public static final int CHART_WIDTH = 900;
    public static final int CHART_HEIGHT = 500;

    private final Comparison c;
    private final String baseline;
    private final io.envbench.metrics.MetricsFile metrics;

    public ComparisonReport(Comparison c, String baseline) {
        this(c, baseline, null);
    }

    /** @param metrics the Resource Monitor's metrics file, or null: resources next to latency, CPU over time */
    public ComparisonReport(Comparison c, String baseline, io.envbench.metrics.MetricsFile metrics) {
        this.c = c;
        this.baseline = c.baseline(baseline);
        this.metrics = metrics;
    }

    public static final String[] METRICS_HEAD = {"environment", "host CPU % avg / peak", "JMeter CPU % avg / peak",
            "target CPU % avg / peak", "docker-proxy CPU % avg / peak", "disk write KB/s avg / peak",
            "network rx KB/s avg / peak (all interfaces)"};

    public static final String METRICS_NOTE = "From the Resource Monitor's metrics file: host CPU counts the whole machine as 100; "
            + "JMeter (its own JVM), the target (its container or process tree) and docker-proxy (Docker's userland port proxy) "
            + "count one core as 100. On a small machine JMeter competes with the target for the same CPUs.";

    /** Average and peak resources per environment from the metrics file. */
    public List<String[]> metricsRows() {
        List<String[]> rows = new ArrayList<>();
        if (metrics == null) {
            return rows;
        }
        for (String env : c.environments()) {
            if (!metrics.environments().contains(env)) {
                continue;
            }
            rows.add(new String[] {env, avgPeak(metrics.summary(env, "host.cpu.pct"), 1),
                    avgPeak(metrics.summary(env, "process." + io.envbench.metrics.HostProbe.JVM_ROLE + ".cpu.pct"), 1),
                    avgPeak(metrics.summary(env, "target.cpu.pct"), 1),
                    avgPeak(metrics.summary(env, "process.docker-proxy.cpu.pct"), 1),
                    avgPeak(metrics.summaryOfSum(env, java.util.regex.Pattern.compile("host\\.disk\\..*\\.write\\.bytesPerSec")), 1024),
                    avgPeak(metrics.summaryOfSum(env, java.util.regex.Pattern.compile("host\\.net\\..*\\.rx\\.bytesPerSec")), 1024)});
        }
        return rows;
    }

    private static String avgPeak(io.envbench.metrics.MetricsFile.Summary s, double divisor) {
        return f1(s.average() / divisor) + " / " + f1(s.peak() / divisor);
    }

    public String baseline() {
        return baseline;
    }

    /** A difference between two environments for one label. */
    public record Difference(String label, String envA, String envB, double medianA, double medianB, double latencyP,
                             double throughputA, double throughputB, double throughputP) {
        public boolean latencySignificant() {
            return latencyP < ALPHA;
        }

        /** NaN when either side has fewer than 2 runs. */
        public boolean throughputSignificant() {
            return throughputP < ALPHA;
        }
    }

    /** Every pair of environments, for each label and TOTAL. */
    public List<Difference> differences() {
        List<String> envs = new ArrayList<>(c.environments());
        List<Difference> out = new ArrayList<>();
        for (String label : c.rows()) {
            for (int i = 0; i < envs.size(); i++) {
                for (int j = i + 1; j < envs.size(); j++) {
                    SampleStatistics a = c.get(envs.get(i), label);
                    SampleStatistics b = c.get(envs.get(j), label);
                    if (a == null || b == null) {
                        continue;
                    }
                    double tp = Double.NaN;
                    RunStatistics ra = c.acrossRuns(envs.get(i), label, io.envbench.stats.Figure.THROUGHPUT);
                    RunStatistics rb = c.acrossRuns(envs.get(j), label, io.envbench.stats.Figure.THROUGHPUT);
                    if (ra.runs() >= 2 && rb.runs() >= 2) {
                        tp = new TTest().tTest(perRun(envs.get(i), label), perRun(envs.get(j), label));
                    }
                    out.add(new Difference(label, envs.get(i), envs.get(j), a.medianMs(), b.medianMs(),
                            MannWhitney.test(a.distribution(), b.distribution()).p(), ra.mean(), rb.mean(), tp));
                }
            }
        }
        return out;
    }

    private double[] perRun(String env, String label) {
        return c.runs(env).stream().map(r -> c.get(env, r, label)).filter(java.util.Objects::nonNull)
                .mapToDouble(SampleStatistics::throughputPerSec).toArray();
    }

    /** Writes everything into {@code dir}; returns the files written. */
    public List<Path> write(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("charts"));
        List<Path> written = new ArrayList<>();
        written.add(write(dir.resolve("comparison.csv"), csv()));
        written.add(write(dir.resolve("comparison.md"), markdown()));
        Map<String, JFreeChart> charts = new ComparisonCharts(c, baseline).all();
        if (metrics != null) {
            charts.put("cpu-over-time", new ComparisonCharts(c, baseline).cpuOverTime(metrics));
        }
        for (Map.Entry<String, JFreeChart> e : charts.entrySet()) {
            for (ChartFormat f : ChartFormat.values()) {
                Path file = dir.resolve("charts").resolve(e.getKey() + "." + f.extension());
                f.write(e.getValue(), file, CHART_WIDTH, CHART_HEIGHT);
                written.add(file);
            }
        }
        written.add(write(dir.resolve("index.html"), html(charts.keySet())));
        return written;
    }

    private static Path write(Path file, String text) throws IOException {
        // write beside, then move: a report file is never left half-written
        Path tmp = file.resolveSibling(file.getFileName() + ".part");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        return Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    public String csv() {
        StringBuilder b = new StringBuilder(CSV_HEADER).append('\n');
        for (String label : c.rows()) {
            for (String env : c.environments()) {
                SampleStatistics s = c.get(env, label);
                if (s == null) {
                    continue;
                }
                b.append(String.join(",", csvField(env), csvField(label), Long.toString(s.count()), num(s.meanMs()),
                        num(s.medianMs()), num(s.percentileMs(90)), num(s.percentileMs(95)), num(s.percentileMs(99)),
                        Long.toString(s.minMs()), Long.toString(s.maxMs()), num(s.errorPct()), num(s.throughputPerSec()),
                        num(s.receivedKBytesPerSec()), num(s.sentKBytesPerSec()), Long.toString(s.aggregateReport90Ms()))).append('\n');
            }
        }
        return b.toString();
    }

    private static String csvField(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    /** Table rows: label, env, figures, and throughput / 90% line relative to the baseline; columns as {@link #TABLE_HEAD}. */
    public List<String[]> tableRows() {
        List<String[]> rows = new ArrayList<>();
        for (String label : c.rows()) {
            SampleStatistics base = c.get(baseline, label);
            for (String env : c.environments()) {
                SampleStatistics s = c.get(env, label);
                if (s == null) {
                    continue;
                }
                rows.add(new String[] {label, env, Long.toString(s.count()), f2(s.meanMs()), f1(s.medianMs()), f1(s.percentileMs(90)),
                        Long.toString(s.aggregateReport90Ms()), Long.toString(s.minMs()), Long.toString(s.maxMs()),
                        f2(s.errorPct()) + "%", f1(s.throughputPerSec()), f1(s.receivedKBytesPerSec()),
                        rel(s.throughputPerSec(), base == null ? Double.NaN : base.throughputPerSec()),
                        rel(s.percentileMs(90), base == null ? Double.NaN : base.percentileMs(90))});
            }
        }
        return rows;
    }

    public static final String[] TABLE_HEAD = {"label", "environment", "count", "average ms", "median ms", "90% ms",
            "90% line ms (Aggregate)", "min ms", "max ms", "error %", "throughput /s", "received KB/s", "throughput vs baseline",
            "90% vs baseline"};

    private static final String TABLE_NOTE = "average, median and 90% follow JMeter's HTML report (mean; commons-math Percentile, "
            + "LEGACY estimation); \"90% line (Aggregate)\" follows JMeter's Aggregate Report (nearest rank); throughput = count / "
            + "(last sample end - first sample start); KB/s = bytes / 1024 over the same time; \"vs baseline\": baseline = 100.";

    private List<String[]> runRows() {
        List<String[]> rows = new ArrayList<>();
        for (String label : c.rows()) {
            for (String env : c.environments()) {
                RunStatistics t = c.acrossRuns(env, label, io.envbench.stats.Figure.THROUGHPUT);
                RunStatistics p = c.acrossRuns(env, label, io.envbench.stats.Figure.P90);
                if (t.runs() == 0) {
                    continue;
                }
                String warn = t.tooVariable() || p.tooVariable()
                        ? "varies > 3.5%: about " + Math.max(t.runsNeeded(), p.runsNeeded()) + " runs in all would bring the 95% CI within 3.5%"
                        : (t.runs() < 2 ? "one run: repeat it for a confidence interval" : "");
                rows.add(new String[] {label, env, Long.toString(t.runs()), f1(t.mean()) + " ± " + f1(t.ciHalfWidth95()),
                        pct(t.cv()), f1(p.mean()) + " ± " + f1(p.ciHalfWidth95()), pct(p.cv()), warn});
            }
        }
        return rows;
    }

    private static final String[] RUN_HEAD = {"label", "environment", "runs", "throughput /s (mean ± 95% CI)", "CV",
            "90% ms (mean ± 95% CI)", "CV", "note"};

    private List<String[]> differenceRows() {
        List<String[]> rows = new ArrayList<>();
        for (Difference d : differences()) {
            rows.add(new String[] {d.label(), d.envA() + " vs " + d.envB(), f1(d.medianA()) + " / " + f1(d.medianB()),
                    p(d.latencyP()), d.latencySignificant() ? "yes" : "NOT significant",
                    f1(d.throughputA()) + " / " + f1(d.throughputB()),
                    Double.isNaN(d.throughputP()) ? "needs 2+ runs each" : p(d.throughputP()) + (d.throughputSignificant() ? " yes" : " NOT significant")});
        }
        return rows;
    }

    private static final String[] DIFF_HEAD = {"label", "pair", "median ms", "Mann-Whitney p (response times)",
            "significant at 0.05", "throughput /s (mean of runs)", "Welch t-test p (throughput per run)"};

    public String markdown() {
        StringBuilder b = new StringBuilder("# EnvBench comparison\n\nBaseline: **").append(baseline).append("**\n\n");
        mdTable(b, TABLE_HEAD, tableRows());
        b.append('\n').append(TABLE_NOTE).append("\n\n## Repeated runs\n\n");
        mdTable(b, RUN_HEAD, runRows());
        b.append("\n## Significance\n\n");
        mdTable(b, DIFF_HEAD, differenceRows());
        if (metrics != null) {
            b.append("\n## Resources over the run (metrics file)\n\n");
            mdTable(b, METRICS_HEAD, metricsRows());
            b.append('\n').append(METRICS_NOTE).append('\n');
        }
        return b.toString();
    }

    /** The table (and resources, with a metrics file) as plain text for a terminal: summary's output. */
    public String text() {
        StringBuilder b = new StringBuilder();
        textTable(b, TABLE_HEAD, tableRows(), 2);
        b.append('\n').append(TABLE_NOTE).append('\n');
        if (metrics != null) {
            b.append("\nResources (metrics file):\n");
            textTable(b, METRICS_HEAD, metricsRows(), 1);
            b.append('\n').append(METRICS_NOTE).append('\n');
        }
        return b.toString();
    }

    /** @param names how many leading columns are names (left-aligned); figures are right-aligned, as in JMeter's tables */
    private static void textTable(StringBuilder b, String[] head, List<String[]> rows, int names) {
        int[] width = new int[head.length];
        for (int i = 0; i < head.length; i++) {
            width[i] = head[i].length();
            for (String[] r : rows) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        List<String[]> all = new ArrayList<>();
        all.add(head);
        all.addAll(rows);
        for (String[] r : all) {
            for (int i = 0; i < r.length; i++) {
                String cell = i < names ? String.format("%-" + width[i] + "s", r[i]) : String.format("%" + width[i] + "s", r[i]);
                b.append(i == 0 ? "" : "  ").append(cell);
            }
            b.append('\n');
        }
    }

    private static void mdTable(StringBuilder b, String[] head, List<String[]> rows) {
        b.append("| ").append(String.join(" | ", head)).append(" |\n|");
        b.append("---|".repeat(head.length)).append('\n');
        for (String[] r : rows) {
            b.append("| ").append(String.join(" | ", java.util.Arrays.stream(r).map(x -> x.replace("|", "\\|")).toList())).append(" |\n");
        }
    }

    public String html(Iterable<String> chartNames) {
        StringBuilder b = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>EnvBench comparison</title>\n")
                .append("<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
                        + "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:nth-child(-n+2),th{text-align:left}"
                        + "th{background:#eee}.note{color:#555;max-width:70em}.bad{color:#b00}</style></head><body>\n")
                .append("<h1>EnvBench comparison</h1>\n<p>Baseline: <b>").append(esc(baseline)).append("</b>. Environments: ")
                .append(esc(String.join(", ", c.environments()))).append(".</p>\n");
        htmlTable(b, TABLE_HEAD, tableRows());
        b.append("<p class=\"note\">").append(esc(TABLE_NOTE)).append("</p>\n<h2>Repeated runs</h2>\n");
        htmlTable(b, RUN_HEAD, runRows());
        b.append("<h2>Significance</h2>\n");
        htmlTable(b, DIFF_HEAD, differenceRows());
        if (metrics != null) {
            b.append("<h2>Resources over the run (metrics file)</h2>\n");
            htmlTable(b, METRICS_HEAD, metricsRows());
            b.append("<p class=\"note\">").append(esc(METRICS_NOTE)).append("</p>\n");
        }
        b.append("<h2>Charts</h2>\n");
        for (String name : chartNames) {
            b.append("<figure><img src=\"charts/").append(name).append(".png\" width=\"").append(CHART_WIDTH).append("\" alt=\"")
                    .append(name).append("\"><figcaption>").append(name).append(": <a href=\"charts/").append(name)
                    .append(".png\">PNG</a> <a href=\"charts/").append(name).append(".svg\">SVG</a> <a href=\"charts/").append(name)
                    .append(".pdf\">PDF</a></figcaption></figure>\n");
        }
        b.append("<p>Also: <a href=\"comparison.csv\">comparison.csv</a>, <a href=\"comparison.md\">comparison.md</a></p>\n</body></html>\n");
        return b.toString();
    }

    private static void htmlTable(StringBuilder b, String[] head, List<String[]> rows) {
        b.append("<table><tr>");
        for (String h : head) {
            b.append("<th>").append(esc(h)).append("</th>");
        }
        b.append("</tr>\n");
        for (String[] r : rows) {
            b.append("<tr>");
            for (String v : r) {
                b.append(v.contains("NOT significant") || v.startsWith("varies") ? "<td class=\"bad\">" : "<td>").append(esc(v)).append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n");
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

    private static String p(double v) {
        return Double.isNaN(v) ? "–" : v < 0.0001 ? "<0.0001" : String.format(Locale.ROOT, "%.4f", v);
    }

    private static String rel(double v, double base) {
        return Double.isNaN(base) || base == 0 ? "–" : String.format(Locale.ROOT, "%.1f", 100 * v / base);
    }
}
