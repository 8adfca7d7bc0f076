package io.envbench.report.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.envbench.measure.stats.Verdict;
import io.envbench.study.psql.PsqlComparison;
import io.envbench.study.psql.PsqlTimes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Study 002's (docs/studies.md#study-002) report over made-up runs whose times are known: medians, intervals, both
 * overheads, both charts.
 */
class PsqlReportTest {
    @TempDir
    Path dir;

    static PsqlTimes run(double insert, double select) {
        return PsqlTimes.find(String.format(
                Locale.ROOT,
                "psql insert statements=1000 elapsed_s=%.3f user_s=0.010 sys_s=0.020%n"
                        + "psql select statements=10000 elapsed_s=%.3f user_s=0.300 sys_s=0.400%n",
                insert,
                select));
    }

    static PsqlComparison sixRunsEach() {
        List<String> places = List.of("host", "same-container", "other-container");
        double[] factor = {1.0, 1.1, 1.2};
        Map<String, List<PsqlTimes>> runs = new LinkedHashMap<>();
        for (int p = 0; p < places.size(); p++) {
            List<PsqlTimes> list = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                list.add(run(factor[p] * (2.0 + 0.01 * i), factor[p] * (1.0 + 0.01 * i)));
            }
            runs.put(places.get(p), list);
        }
        return new PsqlComparison(places, "host", Optional.of("same-container"), runs);
    }

    @Test
    void aTablePerPhaseWithMediansIntervalsAndBothOverheads() {
        PsqlReport r = new PsqlReport(sixRunsEach());
        assertEquals(List.of("insert", "select"), r.phases());
        List<PsqlReport.Row> insert = r.rows("insert");
        assertEquals(
                List.of("host", "same-container", "other-container"),
                insert.stream().map(PsqlReport.Row::environment).toList());
        assertEquals(2.025, insert.get(0).elapsed().median(), 1e-9);
        assertTrue(insert.get(0).elapsed().interval95());
        assertEquals(1.2, insert.get(2).versusBaseline().ratio(), 1e-9);
        assertEquals(
                1.2 / 1.1, insert.get(2).versusSameContainer().orElseThrow().ratio(), 1e-9);
        assertTrue(insert.get(2).versusBaseline().available());
        String md = r.markdown();
        assertTrue(md.contains("## insert (1000 statements)") && md.contains("## select (10000 statements)"), md);
        assertTrue(
                md.contains("| place | runs | µs per statement | elapsed s | user s | sys s | vs host | verdict vs host"
                        + " | vs same-container | verdict vs same-container |"),
                md);
        assertTrue(
                md.contains("| host | 6 | 2025.0 | 2.025 (2.000–2.050) | 0.010 (0.010–0.010) | 0.020 (0.020–0.020) |"
                        + " reference |  | -9.1% "),
                md);
        assertTrue(md.contains("| as same-container vs host |"), md);
        assertTrue(md.contains("| other-container | 6 | 2430.0 | 2.430 (2.400–2.460) |"), md);
        assertTrue(md.contains("| +20.0% (+18.2% to +21.8%), +405.0 µs | +20.0% p=0.002, adjusted 0.002 |"), md);
        assertTrue(md.contains("Verdicts: 6 tests of elapsed time against host and against same-container"), md);
        String csv = r.csv();
        assertEquals(1 + 2 * 3 * 3, csv.lines().count(), csv);
        assertTrue(csv.contains("insert,1000,other-container,elapsed,6,2.43,2.4,2.46,ci95,20,"), csv);
        assertTrue(csv.contains(",2430,405,0.0021645021645021645,"), csv);
    }

    /**
     * Each place apart from the host by complete separation is significant against both references after the
     * family's adjustment; the added microseconds are the medians' difference per statement.
     */
    @Test
    void everyOverheadHasAVerdictInOneFamilyAndItsMicroseconds() {
        PsqlReport r = new PsqlReport(sixRunsEach());
        assertEquals(6, r.verdicts().size(), "2 phases x (2 places vs host + 1 vs same-container)");
        PsqlReport.Row other = r.rows("select").get(2);
        assertEquals(Verdict.Kind.SIGNIFICANT, other.verdictVersusBaseline().kind());
        assertEquals(
                Verdict.Kind.SIGNIFICANT,
                other.verdictVersusSameContainer().orElseThrow().kind());
        assertEquals(123.0, other.microsPerStatement(), 1e-9, "1.230 s over 10,000 statements");
        assertEquals(
                20.5,
                other.addedMicros(other.versusBaseline(), other.versusBaseline().ratio()),
                1e-9,
                "1.230 s - 1.025 s over 10,000 statements");
        assertTrue(
                r.rows("select").get(0).verdictVersusSameContainer().isEmpty(),
                "the host is tested once, as same-container vs host");
    }

    /** A place no different from the host gets "~" and the smallest change its runs could have shown. */
    @Test
    void noDifferenceIsSaidWithItsNoiseFloor() {
        Map<String, List<PsqlTimes>> runs = new LinkedHashMap<>();
        List<PsqlTimes> host = new ArrayList<>();
        List<PsqlTimes> twin = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            host.add(run(2.0 + 0.01 * i, 1.0 + 0.01 * i));
            twin.add(run(2.0 + 0.01 * (7 - i) + 0.005, 1.0 + 0.01 * (7 - i) + 0.005));
        }
        runs.put("host", host);
        runs.put("twin", twin);
        PsqlReport r = new PsqlReport(new PsqlComparison(List.of("host", "twin"), "host", Optional.empty(), runs));
        Verdict v = r.rows("insert").get(1).verdictVersusBaseline();
        assertEquals(Verdict.Kind.NOT_SIGNIFICANT, v.kind());
        assertTrue(v.detectablePct() > 0 && v.detectablePct() < 10, v.text());
        assertTrue(r.markdown().contains("| ~ p="), r.markdown());
    }

    @Test
    void writesTheTablesAndBothCharts() throws Exception {
        List<Path> files = new PsqlReport(sixRunsEach()).write(dir);
        assertTrue(files.contains(dir.resolve("psql.md")) && files.contains(dir.resolve("psql.csv")));
        for (String chart : List.of(PsqlReport.CHART, PsqlReport.RELATIVE_CHART)) {
            assertTrue(Files.size(dir.resolve("charts/" + chart + ".png")) > 5_000, chart);
        }
    }
}
