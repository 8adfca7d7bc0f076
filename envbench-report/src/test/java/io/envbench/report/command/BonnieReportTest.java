package io.envbench.report.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.envbench.study.bonnie.BonnieComparison;
import io.envbench.study.bonnie.BonnieCsv;
import io.envbench.study.bonnie.BonnieFigure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bonnie++ report over made-up runs whose figures are known: host = 100, intervals, verdicts, both charts. */
class BonnieReportTest {
    @TempDir
    Path dir;

    /** A bonnie++ 1.98 line with the block figures given and the file tests too quick to time. */
    static BonnieCsv run(String place, double write, double read) {
        return BonnieCsv.parse(
                "1.98,2.00a," + place + ",1,1,1G,,8192,5,,," + write + ",20,100000,10,,," + read + ",8,1000,12,128,,,,,"
                        + "+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,1s,2s,,3s,4ms,5ms,6ms,7ms,8ms,9ms,10ms");
    }

    /** As {@link #run}, with random create timed at {@code perSec} files/s. */
    static BonnieCsv runWithRandomCreate(String place, double perSec) {
        return BonnieCsv.parse("1.98,2.00a," + place
                + ",1,1,1G,,8192,5,,,200000,20,100000,10,,,400000,8,1000,12,128,,,,," + "+++++,+++,+++++,+++,+++++,+++,"
                + perSec + ",50,+++++,+++,+++++,+++,,1s,2s,,3s,4ms,5ms,6ms,7ms,8ms,9ms,10ms");
    }

    /**
     * A figure the baseline timed in only 2 of its 6 runs (bonnie++ too quick in the rest) is left out of the charts,
     * and the table says why: a bar against two runs would look like a finding no test could make.
     */
    @Test
    void aFigureTheBaselineTimedInTooFewRunsStaysOutOfTheCharts() {
        List<BonnieCsv> host = new ArrayList<>();
        List<BonnieCsv> cow = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            host.add(i < 2 ? runWithRandomCreate("host", 2000) : run("host", 200_000, 400_000));
            cow.add(runWithRandomCreate("cow", 4000 + i));
        }
        BonnieReport r = new BonnieReport(
                new BonnieComparison(List.of("host", "cow"), "host", Map.of("host", host, "cow", cow)));
        assertEquals(List.of(new BonnieReport.Thin(BonnieFigure.RANDOM_CREATE, "host", 2, 6)), r.tooFewTimed());
        var chart = r.charts().get(BonnieReport.CHART).getCategoryPlot().getDataset();
        assertTrue(
                chart.getColumnKeys().contains(BonnieFigure.BLOCK_WRITE.title()),
                chart.getColumnKeys().toString());
        assertTrue(
                !chart.getColumnKeys().contains(BonnieFigure.RANDOM_CREATE.title()),
                chart.getColumnKeys().toString());
        assertTrue(
                r.markdown()
                        .contains("Not in the charts: random create of host (timed in 2 of 6 runs, so every place's bar"
                                + " of it)"),
                r.markdown());

        // the other way round: the host timed it in every run, cow in two: cow's bar goes, the host's stays
        List<BonnieCsv> host6 = new ArrayList<>();
        List<BonnieCsv> cow2 = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            host6.add(runWithRandomCreate("host", 2000 + i));
            cow2.add(i < 2 ? runWithRandomCreate("cow", 4000) : run("cow", 200_000, 400_000));
        }
        BonnieReport r2 = new BonnieReport(
                new BonnieComparison(List.of("host", "cow"), "host", Map.of("host", host6, "cow", cow2)));
        assertEquals(List.of(new BonnieReport.Thin(BonnieFigure.RANDOM_CREATE, "cow", 2, 6)), r2.tooFewTimed());
        var chart2 = r2.charts().get(BonnieReport.CHART).getCategoryPlot().getDataset();
        String create = BonnieFigure.RANDOM_CREATE.title();
        assertTrue(
                chart2.getColumnKeys().contains(create), chart2.getColumnKeys().toString());
        assertTrue(chart2.getValue("host", create) != null, "the host's bar stays");
        assertTrue(!chart2.getRowKeys().contains("cow") || chart2.getValue("cow", create) == null, "cow's bar goes");
    }

    static BonnieComparison sixRunsEach() {
        List<BonnieCsv> host = new ArrayList<>();
        List<BonnieCsv> cow = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            host.add(run("host", 200_000 + 1000 * i, 400_000));
            cow.add(run("cow", 100_000 + 1000 * i, 400_000));
        }
        return new BonnieComparison(List.of("host", "cow"), "host", Map.of("host", host, "cow", cow));
    }

    @Test
    void aTablePerFigureWithHostAtHundredIntervalsAndVerdicts() {
        BonnieReport r = new BonnieReport(sixRunsEach());
        List<BonnieReport.Row> write = r.rows(BonnieFigure.BLOCK_WRITE);
        assertEquals(
                List.of("host", "cow"),
                write.stream().map(BonnieReport.Row::environment).toList());
        assertEquals(202_500, write.get(0).median());
        assertTrue(write.get(1).interval95(), "6 runs give a 95% interval of the median");
        assertTrue(write.get(1).verdict().significant(), "every cow run below every host run: p = 0.002");
        String md = r.markdown();
        assertTrue(md.contains("## block write (K/s, higher is better)"), md);
        assertTrue(md.contains("| host | 6 | 202,500 | 200,000–205,000 | 100 | 99–101 | baseline |"), md);
        // 8 tests (the timed figures of cow): 0.002 x 8 = 0.017 after Benjamini-Hochberg, still below 0.05
        assertEquals(8, r.verdicts().size());
        assertTrue(
                md.contains("| cow | 6 | 102,500 | 100,000–105,000 | 51 | 49–52 | -49.4% p=0.002, adjusted 0.017 |"),
                md);
        // identical runs on both sides: any change at all would have shown
        assertTrue(
                md.contains(
                        "| cow | 6 | 400,000 | 400,000–400,000 | 100 | 100–100 | ~ p=1.000, adjusted 1.000 (MDE 0.0%) |"),
                md);
        assertTrue(md.contains("Verdicts: 8 tests of every figure x place adjusted together"), md);
        assertTrue(
                md.contains("## sequential create (files/s, higher is better)")
                        && md.contains("too quick to time (+++++) in 6 runs"),
                md);
    }

    @Test
    void writesTheTablesAndThePlainAndLogCharts() throws Exception {
        List<Path> files = new BonnieReport(sixRunsEach()).write(dir);
        assertTrue(files.contains(dir.resolve("bonnie.md")) && files.contains(dir.resolve("bonnie.csv")));
        for (String chart : List.of(BonnieReport.CHART, BonnieReport.LOG_CHART)) {
            for (String ext : List.of("png", "svg", "pdf")) {
                assertTrue(Files.size(dir.resolve("charts/" + chart + "." + ext)) > 1000, chart + "." + ext);
            }
        }
        List<String> csv = Files.readAllLines(dir.resolve("bonnie.csv"));
        assertTrue(
                csv.contains(
                        "block write,K/s,host,6,0,202500,200000,205000,ci95,100,98.76543209876543,101.23456790123457,0,,,baseline,"),
                String.join("\n", csv));
    }
}
