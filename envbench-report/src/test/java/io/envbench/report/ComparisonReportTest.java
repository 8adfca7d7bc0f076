package io.envbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;

import io.envbench.measure.metrics.MetricsCsvWriter;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.Sample;
import io.envbench.measure.stats.Comparison;
import io.envbench.measure.stats.Figure;
import io.envbench.measure.stats.Verdict;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComparisonReportTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    /** Two runs of three environments; docker-bridge clearly slower. */
    static Comparison comparison() {
        return comparison(2);
    }

    /** runs x three environments of 3000 samples each; docker-bridge clearly slower, docker-host drawn like bare. */
    static Comparison comparison(int runs) {
        Comparison c = new Comparison();
        Random r = new Random(3);
        for (int n = 1; n <= runs; n++) {
            String run = "run" + n;
            long t = 1_000_000;
            for (int i = 0; i < 3000; i++) {
                t += 2;
                c.add(new Sample("bare", "GET /", t, 2 + r.nextInt(3), true, 4300, 120), run);
                c.add(new Sample("docker-bridge", "GET /", t, 6 + r.nextInt(3), i % 100 != 0, 4300, 120), run);
                c.add(new Sample("docker-host", "GET /", t, 2 + r.nextInt(3), true, 4300, 120), run);
            }
        }
        return c;
    }

    @Test
    void writesEveryDocumentAndChartInEveryFormat() throws Exception {
        ComparisonReport report = new ComparisonReport(comparison(), null);
        assertEquals("bare", report.baseline());
        List<Path> files = report.write(dir);
        List<String> csv = Files.readAllLines(dir.resolve("comparison.csv"));
        assertEquals(ComparisonReport.CSV_HEADER, csv.get(0));
        assertEquals(1 + 3 * 2, csv.size(), "3 environments x (GET / + TOTAL)");
        assertTrue(csv.get(1).startsWith("bare,GET /,6000,"), csv.get(1));
        int columns = ComparisonReport.CSV_HEADER.split(",").length;
        csv.forEach(line -> assertEquals(columns, line.split(",", -1).length, line));
        assertTrue(Files.readString(dir.resolve("index.html")).contains("charts/p90.svg"));
        String md = Files.readString(dir.resolve("comparison.md"));
        assertTrue(md.contains("## Across runs: which differences hold"), md);
        assertFalse(
                md.contains("Significance") || md.contains("Mann-Whitney p (response times)"),
                "no sample-level verdicts");
        for (String chart : new ComparisonCharts(comparison(), "bare").all().keySet()) {
            BufferedImage png =
                    ImageIO.read(dir.resolve("charts/" + chart + ".png").toFile());
            assertEquals(ComparisonReport.CHART_WIDTH, png.getWidth(), chart);
            assertEquals(ComparisonReport.CHART_HEIGHT, png.getHeight(), chart);
            assertTrue(distinctColours(png) > 5, chart + " is not blank");
            assertTrue(Files.readString(dir.resolve("charts/" + chart + ".svg")).contains("<svg"), chart);
            assertTrue(
                    new String(Files.readAllBytes(dir.resolve("charts/" + chart + ".pdf")), 0, 5).startsWith("%PDF"),
                    chart);
        }
        assertTrue(files.stream().noneMatch(f -> f.toString().endsWith(".part")));
    }

    /** 6,000 samples a side and a clear difference, but two runs each: no verdict, and every output says so. */
    @Test
    void samplesOfTwoRunsGiveNoVerdict() {
        ComparisonReport report = new ComparisonReport(comparison(2), "bare");
        String[] bridge = row(report.tableRows(), "GET /", "docker-bridge");
        assertEquals("2", bridge[2], "runs");
        assertTrue(
                bridge[bridge.length - 1].matches("\\+\\d+\\.\\d% \\(too few runs: 2 vs 2\\)"),
                bridge[bridge.length - 1]);
        assertTrue(report.text().contains("(too few runs: 2 vs 2)"), report.text());
        assertTrue(
                report.markdown().contains("too few runs (2 vs 2; at least 4 each needed for p<0.05)"),
                report.markdown());
        assertTrue(
                report.html(List.of()).contains("<td class=\"bad\"><details><summary>too few runs (2 vs 2;"),
                "flagged in HTML, folded");
        assertEquals(
                Verdict.Kind.TOO_FEW_RUNS,
                report.acrossRuns()
                        .versusBaseline("docker-bridge", "GET /", Figure.P90)
                        .kind());
        assertTrue(
                report.tableRows().stream().flatMap(Arrays::stream).noneMatch(cell -> cell.contains("~")),
                "never a silent ~");
    }

    /**
     * At a fixed rate the schedule sets the throughput: judging only the 90% line halves the family, so the real
     * difference keeps an adjusted p no larger, and throughput shows its change and raw p marked not judged.
     */
    @Test
    void aFixedRateJudgesTheNinetyPercentLineAlone() {
        ComparisonReport all = new ComparisonReport(comparison(6), null);
        ComparisonReport p90 = all.withJudged(List.of(Figure.P90));
        assertEquals(2, p90.verdicts().size(), "90% of GET / of two environments");
        double before = all.verdicts()
                .get("docker-bridge", "GET /", Figure.P90)
                .orElseThrow()
                .adjustedP();
        double after = p90.verdicts()
                .get("docker-bridge", "GET /", Figure.P90)
                .orElseThrow()
                .adjustedP();
        assertTrue(after <= before, after + " vs " + before);
        assertTrue(p90.familyNote().startsWith("Verdicts: 2 tests of 90% adjusted together"), p90.familyNote());
        assertTrue(p90.familyNote().contains("Throughput is not judged"), p90.familyNote());
        String throughput = p90.runRows().stream()
                .filter(r -> r[0].equals("GET /") && r[1].equals("docker-bridge"))
                .findFirst()
                .orElseThrow()[5];
        assertTrue(throughput.matches("[+-]\\d+\\.\\d% \\(p=\\d\\.\\d{3}, not judged\\)"), throughput);
        assertTrue(p90.noiseRows().stream().allMatch(r -> r[2].equals("not judged")));
    }

    /** Six runs: the real difference is marked with its sign in every output, the one drawn alike with "~". */
    @Test
    void sixRunsMarkTheRealDifferenceOnly() {
        ComparisonReport report = new ComparisonReport(comparison(6), null);
        List<String[]> rows = report.tableRows();
        String bridgeP90 = row(rows, "GET /", "docker-bridge")[14];
        String hostP90 = row(rows, "GET /", "docker-host")[14];
        assertEquals("baseline", row(rows, "GET /", "bare")[14]);
        // 4 tests (throughput and 90% of GET /, two environments; TOTAL holds the same samples and is not tested
        // twice): the raw p beside the adjusted one
        assertEquals(4, report.verdicts().size());
        assertTrue(bridgeP90.matches("\\+\\d+\\.\\d% p=0\\.002, adjusted 0\\.0\\d\\d"), bridgeP90);
        assertTrue(hostP90.matches("~ p=\\d\\.\\d{3}, adjusted \\d\\.\\d{3} \\(MDE \\d+\\.\\d%\\)"), hostP90);
        assertTrue(
                report.markdown()
                        .contains("Verdicts: 4 tests of throughput and 90% adjusted together "
                                + "(Benjamini-Hochberg (false discovery rate), alpha 0.05)"),
                report.markdown());
        assertTrue(report.text().contains(bridgeP90) && report.text().contains(hostP90), report.text());
        String md = report.markdown();
        assertTrue(md.contains("| ~ (p=") && md.contains(" n=6; no change larger than "), md);
        assertFalse(md.matches("(?s).*\\(too few runs: \\d.*"), md);
        String[] head = ComparisonReport.CSV_HEADER.split(",");
        int verdict = List.of(head).indexOf("p90Verdict");
        int change = List.of(head).indexOf("p90VsBaselinePct");
        int median = List.of(head).indexOf("p90MedianOfRuns");
        for (String line : report.csv().lines().skip(1).toList()) {
            String[] f = line.split(",", -1);
            if (f[1].equals("GET /")) {
                assertEquals(
                        switch (f[0]) {
                            case "bare" -> "baseline";
                            case "docker-bridge" -> "significant";
                            default -> "~";
                        },
                        f[verdict],
                        line);
                assertEquals(
                        report.acrossRuns().medianOfRuns(f[0], "GET /", Figure.P90),
                        Double.parseDouble(f[median]),
                        1e-4,
                        line);
                assertEquals("6", f[List.of(head).indexOf("runs")], line);
            }
            if (f[0].equals("docker-bridge")) {
                assertTrue(Double.parseDouble(f[change]) > 50, line);
                double raw = Double.parseDouble(f[List.of(head).indexOf("p90P")]);
                double adjusted = Double.parseDouble(f[List.of(head).indexOf("p90AdjustedP")]);
                assertTrue(adjusted >= raw && adjusted < 0.05, line);
                assertEquals(ComparisonReport.NOT_JUDGED, f[List.of(head).indexOf("p99Verdict")], line);
                assertEquals("", f[List.of(head).indexOf("p99AdjustedP")], line);
            }
        }
    }

    /** The noise floor: per environment the smallest change its runs could show, and the A/A comparison said first. */
    @Test
    void theNoiseFloorAndTheCalibrationAreStated() {
        // docker-host is drawn like bare: read as bare run again, it is what chance alone gives
        ComparisonReport six = new ComparisonReport(comparison(6), null).withCalibration(Optional.of("docker-host"));
        List<String[]> noise = six.noiseRows();
        assertEquals(
                List.of("docker-bridge", "docker-host (bare again)"),
                noise.stream().map(r -> r[0]).toList());
        for (String[] r : noise) {
            assertEquals("6 + 6", r[1]);
            assertTrue(r[2].matches("\\d+\\.\\d%") && r[3].matches("\\d+\\.\\d%"), String.join(" | ", r));
        }
        String note = six.calibrationNote().orElseThrow();
        assertTrue(
                note.startsWith("Calibration (A/A): docker-host is bare run again") && note.contains("throughput ~ ("),
                note);
        assertTrue(six.markdown().contains("## Noise floor") && six.markdown().contains(note), six.markdown());
        assertTrue(six.html(List.of()).contains("Noise floor"));
        assertTrue(new ComparisonReport(comparison(6), null).calibrationNote().isEmpty(), "only with calibration");
        List<String[]> two = new ComparisonReport(comparison(2), null).noiseRows();
        assertEquals("none: too few runs", two.get(0)[2]);
    }

    /** The score table: each environment's total throughput against the baseline's, the ratio inside its interval. */
    @Test
    void theScoreTableGivesEachRatioWithItsInterval() {
        ComparisonReport six = new ComparisonReport(comparison(6), null);
        List<String[]> rows = six.scoreRows();
        assertEquals(
                List.of("bare", "docker-bridge", "docker-host"),
                rows.stream().map(r -> r[0]).toList());
        assertEquals("1 (baseline)", rows.get(0)[3]);
        for (String[] r : rows.subList(1, rows.size())) {
            double ratio = Double.parseDouble(r[3]);
            Matcher m = Pattern.compile("\\[([0-9.]+), ([0-9.]+)\\] \\(([0-9.]+)%\\)")
                    .matcher(r[4]);
            assertTrue(m.matches(), r[4]);
            assertTrue(
                    Double.parseDouble(m.group(1)) <= ratio && ratio <= Double.parseDouble(m.group(2)),
                    String.join(" | ", r));
            assertTrue(Double.parseDouble(m.group(3)) >= 95, r[4]);
            double median = six.acrossRuns().medianOfRuns(r[0], Comparison.TOTAL, Figure.THROUGHPUT)
                    / six.acrossRuns().medianOfRuns("bare", Comparison.TOTAL, Figure.THROUGHPUT);
            assertEquals(median, ratio, 0.005, "ratio of the medians of runs");
        }
        assertTrue(six.markdown().contains("## Headline: throughput against the baseline"), six.markdown());
        assertTrue(six.markdown().contains(String.join(" | ", ComparisonReport.SCORE_HEAD)), six.markdown());
        assertTrue(six.html(List.of()).contains("<h2>Headline: throughput against the baseline</h2>"));
        List<String[]> two = new ComparisonReport(comparison(2), "bare").scoreRows();
        assertEquals("needs 4+ runs a side", two.get(1)[4]);
    }

    private static String[] row(List<String[]> rows, String label, String env) {
        return rows.stream()
                .filter(r -> r[0].equals(label) && r[1].equals(env))
                .findFirst()
                .orElseThrow();
    }

    /** A multi-service target's services each get a row: CPU, memory and the storage writes of their own processes. */
    @Test
    void eachServiceOfAMultiServiceTargetHasARowWithItsStorageWrites() throws Exception {
        Path f = dir.resolve("m.csv");
        try (MetricsCsvWriter w = new MetricsCsvWriter(f)) {
            for (int i = 0; i < 2; i++) {
                w.write(
                        1000 + 1000 * i,
                        "bare",
                        Map.of(
                                "host.cpu.pct",
                                50.0,
                                "process.bare.cpu.pct",
                                90.0,
                                "process.bare/db.cpu.pct",
                                20.0 + 10 * i,
                                "process.bare/db.rss.bytes",
                                200.0 * (1 << 20),
                                "process.bare/db.io.write.bytesPerSec",
                                2048.0 * (1 + i),
                                "process.bare/db.io.read.bytesPerSec",
                                0.0,
                                "process.bare/app.cpu.pct",
                                90.0,
                                "process.bare/app.rss.bytes",
                                100.0 * (1 << 20),
                                "process.bare/app.io.write.bytesPerSec",
                                0.0,
                                "process.bare/app.io.read.bytesPerSec",
                                1024.0));
                w.write(
                        1000 + 1000 * i,
                        "docker-host",
                        Map.of(
                                "host.cpu.pct",
                                50.0,
                                "process.docker-host/db.cpu.pct",
                                25.0,
                                "process.docker-host/db.rss.bytes",
                                300.0 * (1 << 20),
                                "process.docker-host/db.io.write.bytesPerSec",
                                10240.0,
                                "process.docker-host/db.io.read.bytesPerSec",
                                0.0));
            }
        }
        ComparisonReport report = new ComparisonReport(comparison(), null, MetricsFile.read(f));
        List<String[]> rows = report.servicesRows();
        assertEquals(
                List.of("bare/app", "bare/db", "docker-host/db"),
                rows.stream().map(r -> r[0] + "/" + r[1]).sorted().toList());
        String[] db = rows.stream()
                .filter(r -> r[0].equals("bare") && r[1].equals("db"))
                .findFirst()
                .orElseThrow();
        assertEquals(
                List.of("25.0 / 30.0", "200.0 / 200.0", "3.0 / 4.0", "0.0 / 0.0"),
                List.of(db).subList(2, 6));
        assertTrue(report.markdown().contains("## Services apart (metrics file)"), report.markdown());
        assertTrue(report.html(List.of()).contains("<h2>Services apart (metrics file)</h2>"));
        assertTrue(report.text().contains("Services apart"));
        assertTrue(new ComparisonReport(comparison(), null).servicesRows().isEmpty(), "no metrics, no services table");
    }

    /** The report names the metrics' sources from the file beside them, and from an old file's comment line. */
    @Test
    void theSourcesOfTheMetricsAreShownFromEitherPlace() throws Exception {
        Path f = dir.resolve("m.csv");
        try (MetricsCsvWriter w = new MetricsCsvWriter(f)) {
            w.write(1000, "bare", Map.of("host.cpu.pct", 50.0), Map.of("host.*", "procfs of this host"));
        }
        assertTrue(Files.readString(f).startsWith("timestamp,environment,"), "plain CSV");
        ComparisonReport report = new ComparisonReport(comparison(), null, MetricsFile.read(f));
        assertEquals(Optional.of("Sources: host.* procfs of this host."), report.sourcesNote());
        assertTrue(report.text().contains("Sources: host.* procfs of this host."), report.text());
        assertTrue(report.markdown().contains("Sources: host.* procfs of this host."));
        assertTrue(report.html(List.of()).contains("Sources: host.* procfs of this host."));

        Path old = Files.writeString(
                dir.resolve("old.csv"),
                "# sources: host.*=procfs of this host; container.web.*=cgroup v1\n"
                        + "timestamp,environment,host.cpu.pct\n1000,bare,50\n");
        assertEquals(
                Optional.of("Sources: host.* procfs of this host; container.web.* cgroup v1."),
                new ComparisonReport(comparison(), null, MetricsFile.read(old)).sourcesNote());
    }

    @Test
    void anUnknownBaselineIsNamed() {
        IllegalArgumentException e =
                Assertions.assertThrows(IllegalArgumentException.class, () -> new ComparisonReport(comparison(), "vm"));
        assertTrue(e.getMessage().startsWith("baseline: 'vm'"), e.getMessage());
    }

    /** Colours on a 3-pixel grid: a blank or one-colour image has one. */
    static int distinctColours(BufferedImage img) {
        Set<Integer> c = new HashSet<>();
        for (int x = 0; x < img.getWidth(); x += 3) {
            for (int y = 0; y < img.getHeight(); y += 3) {
                c.add(img.getRGB(x, y));
            }
        }
        return c.size();
    }
    /**
     * Result files without their experiment: samples that all carry an intended start (the Arrivals Timer's open
     * model) are judged as a fixed rate is, the 90% line only; the same samples without it judge throughput too.
     */
    @Test
    void samplesOfAnOpenModelLoadAreJudgedOnLatencyOnly() {
        for (boolean scheduled : new boolean[] {true, false}) {
            Comparison c = new Comparison();
            for (String env : List.of("bare", "docker")) {
                for (int run = 1; run <= 4; run++) {
                    for (int i = 0; i < 200; i++) {
                        long start = 1_700_000_000_000L + run * 100_000L + i * 10L;
                        long elapsed = (env.equals("bare") ? 2 : 3) + i % 3;
                        c.add(
                                new Sample(env, "GET /", start, elapsed, true, 100, 10, scheduled ? start : -1),
                                env + "-r" + run);
                    }
                }
            }
            ComparisonReport r = new ComparisonReport(c, "bare").judgedAsItsLoadWas();
            boolean notJudged = r.noiseRows().stream().anyMatch(row -> row[2].equals(ComparisonReport.NOT_JUDGED));
            assertEquals(scheduled, notJudged, "throughput judged only without a schedule: " + r.familyNote());
        }
    }
}
