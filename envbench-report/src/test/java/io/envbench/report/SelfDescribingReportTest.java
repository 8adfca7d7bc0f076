package io.envbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.report.header.RunHeader;
import io.envbench.study.analysis.HostDescription;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentFile;
import io.envbench.study.experiment.PlannedRun;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run directory (RunConclusionTest's fixture writer) reported on its own: the report says what ran where and whether
 * it passed before any figure, its columns say their units, and "varies" marks only the runs that vary. Text is
 * asserted, not measured figures.
 */
class SelfDescribingReportTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    /** bare steady, docker steady at half of it, jumpy drawn from 600/s to 900/s: four repetitions each. */
    private RunConclusion concluded(boolean withHost) throws Exception {
        Experiment e = ExperimentFile.parse(
                """
                name: self-describing
                description: bare against two containers
                target: nginx-static
                environments:
                  - { name: bare, placement: bare }
                  - { name: docker, placement: docker, network: bridge, cpuset: "0", memory: 512m }
                  - { name: jumpy, placement: docker, network: host, volume: { type: tmpfs, path: /srv/cache } }
                repetitions: 4
                load: { http: { path: /, threads: 4, warmupSeconds: 1, durationSeconds: 11 } }
                criteria:
                  - errorPct(*) < 1
                  - throughput(docker) >= 0.9 * throughput(bare)
                """,
                dir.resolve("self.yaml"),
                Path.of("..", "targets").toAbsolutePath().normalize());
        RunDirectory d = new RunDirectory(dir.resolve("run"));
        d.create();
        List<RunRecord> runs = new ArrayList<>();
        for (int rep = 1; rep <= 4; rep++) {
            runs.add(RunConclusionTest.run(d, new PlannedRun(rep, "bare", rep), 1000, 40));
            runs.add(RunConclusionTest.run(d, new PlannedRun(rep, "docker", rep), 500, 40));
            runs.add(RunConclusionTest.run(d, new PlannedRun(rep, "jumpy", rep), rep % 2 == 0 ? 600 : 900, 40));
        }
        for (RunRecord r : runs) {
            d.runs().append(r);
        }
        if (withHost) {
            new HostDescription(
                            "bench-1",
                            2,
                            "Test CPU",
                            8L << 30,
                            "6.5.0-test",
                            "Test Linux 1",
                            "v2",
                            "24.0.7",
                            "17",
                            "2026-01-01T00:00:00Z")
                    .write(d.host());
        }
        return RunConclusion.of(d, e, runs, true, false);
    }

    @Test
    void theHeaderSaysWhatRanWhereAndWhetherItPassed() throws Exception {
        RunConclusion c = concluded(true);
        ComparisonReport report = c.report();
        List<String> written =
                report.write(dir.resolve("report")).stream().map(Path::toString).toList();
        String html = Files.readString(dir.resolve("report/index.html"));
        String md = Files.readString(dir.resolve("report/comparison.md"));
        String htmlText = html.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        for (String doc : List.of(htmlText, md)) {
            assertTrue(doc.contains("self-describing"), "the experiment's name");
            assertFalse(doc.contains(RunHeader.UNNAMED_TITLE), "no generic title");
            assertTrue(doc.contains("2 CPUs (Test CPU), 8.0 GiB memory"), "CPUs and memory");
            assertTrue(doc.contains("kernel 6.5.0-test"), "kernel");
            assertTrue(doc.contains("cgroup v2") && doc.contains("Docker 24.0.7"), "cgroup and Docker");
            assertTrue(doc.contains("network=bridge cpuset=0 memory=512MiB"), "docker's options");
            assertTrue(doc.contains("network=host volume=tmpfs:/srv/cache"), "jumpy's options");
            assertTrue(doc.contains("errorPct(*) < 1"), "each criterion");
            assertTrue(doc.contains("throughput(docker) >= 0.9 * throughput(bare)"), "each criterion");
            assertTrue(doc.contains(RunHeader.PASS) && doc.contains(RunHeader.FAIL), "each verdict");
            assertTrue(doc.contains("criteria failed (1 of 2 criteria held)"), "the outcome");
            assertTrue(doc.contains("Noise floor"), "the noise floor in the header");
        }
        assertTrue(
                html.startsWith("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>self-describing</title>"));
        assertTrue(html.contains("<td class=\"pass\">PASS</td>") && html.contains("<td class=\"fail\">FAIL</td>"));
        // the headline chart comes before every table of figures
        int headline = html.indexOf("src=\"charts/" + ComparisonCharts.HEADLINE + ".png\"");
        assertTrue(headline > 0 && headline < html.indexOf("<h2>All labels</h2>"), "headline first");
        assertTrue(written.stream().anyMatch(f -> f.endsWith(ComparisonCharts.HEADLINE + ".png")));
        assertEquals(
                ComparisonCharts.HEADLINE, report.charts().keySet().iterator().next(), "the first chart");
    }

    @Test
    void anOldRunDirectoryReportsItsHostUnknown() throws Exception {
        String md = concluded(false).report().markdown();
        assertTrue(md.contains("**host**: " + RunHeader.HOST_UNKNOWN), md);
        assertTrue(md.contains("# self-describing"), md);
    }

    @Test
    void variesMarksOnlyTheRunsThatVary() throws Exception {
        ComparisonReport report = concluded(true).report();
        String note = "varies";
        for (String[] row : report.runRows()) {
            String last = row[row.length - 1];
            if (row[1].equals("jumpy")) {
                assertTrue(last.startsWith("varies: throughput CV "), String.join(" | ", row));
            } else {
                assertFalse(last.contains(note), "steady runs, the baseline's too: " + String.join(" | ", row));
            }
        }
        String html = report.html(List.of());
        Matcher bareRow =
                Pattern.compile("<tr><td>TOTAL</td><td>bare</td>.*?</tr>").matcher(html);
        while (bareRow.find()) {
            assertFalse(bareRow.group().contains(note), bareRow.group());
        }
    }

    @Test
    void aSpreadWithinTheClockStepIsNoVariation() {
        var oneOrTwoMs = io.envbench.measure.stats.RunStatistics.of(List.of(1.0, 2.0, 1.0, 2.0));
        var steady = io.envbench.measure.stats.RunStatistics.of(List.of(100.0, 100.0, 100.0, 100.0));
        assertTrue(oneOrTwoMs.tooVariable(), "a CV of about 38%");
        assertEquals(Optional.empty(), ComparisonReport.variesNote(steady, oneOrTwoMs));
        var tenOrTwentyMs = io.envbench.measure.stats.RunStatistics.of(List.of(10.0, 20.0, 10.0, 20.0));
        assertTrue(
                ComparisonReport.variesNote(steady, tenOrTwentyMs).orElseThrow().startsWith("varies: 90% CV "));
    }

    @Test
    void columnsSayTheirUnitAndWhatAHundredPercentIs() {
        for (String[] head : List.of(
                ComparisonReport.TABLE_HEAD,
                ComparisonReport.RUN_HEAD,
                ComparisonReport.METRICS_HEAD,
                ComparisonReport.COST_HEAD,
                ComparisonReport.NOISE_HEAD,
                ComparisonReport.SCORE_HEAD,
                ComparisonReport.SERVICES_HEAD)) {
            for (String h : head) {
                if (h.replace("95% CI", "").replace("90%", "").contains("%")) {
                    assertTrue(
                            h.contains("whole machine")
                                    || h.contains("one core")
                                    || h.contains("of samples")
                                    || h.contains("change")
                                    || h.contains("of the mean")
                                    || h.contains("of the baseline"),
                            "a % column says what 100% is: " + h);
                }
            }
        }
        assertTrue(Arrays.asList(ComparisonReport.TABLE_HEAD).contains("throughput requests/s"));
        assertTrue(ComparisonReport.METRICS_HEAD[1].contains("% of the whole machine"));
        assertTrue(ComparisonReport.METRICS_HEAD[2].contains("% of one core"));
        assertTrue(ComparisonReport.METRICS_HEAD[3].contains("% of one core"));
        assertTrue(ComparisonReport.RUN_HEAD[4].contains("requests/s") && ComparisonReport.RUN_HEAD[8].contains("ms"));
    }

    @Test
    void theAcrossRunsTableFoldsItsLongCells() throws Exception {
        String html = concluded(true).report().html(List.of());
        String table = html.substring(
                html.indexOf("<h2>Across runs"), html.indexOf("</table>", html.indexOf("<h2>Across runs")));
        // outside the folded details, no cell shows more than the fold's width
        String shown = table.replaceAll("(?s)<summary>(.*?)</summary>.*?</details>", "$1");
        Matcher cell = Pattern.compile("<td[^>]*>([^<]*)</td>").matcher(shown);
        while (cell.find()) {
            assertTrue(cell.group(1).length() <= ComparisonReport.HTML_FOLD_CHARS + 10, cell.group(1));
        }
        assertTrue(table.contains("<details><summary>"), "long cells fold");
    }
}
