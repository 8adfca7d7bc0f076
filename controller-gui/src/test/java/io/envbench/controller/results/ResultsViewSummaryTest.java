package io.envbench.controller.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.swing.JProgressBar;
import javax.swing.JTable;
import javax.swing.SwingUtilities;

import io.envbench.report.RunConclusion;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.ExperimentFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run that ended with its {@code summary.json} opens from it: the same tables as from its JTLs, within 2 s, with
 * the JTLs turned into bytes no reader could take (so opening them would fail).
 */
class ResultsViewSummaryTest {
    @TempDir
    Path results;

    private static final Path TARGETS =
            Path.of("..", "targets").toAbsolutePath().normalize();
    private static final List<String> TABLES = List.of(
            "results.acrossRuns",
            "results.samples",
            "results.resources",
            "results.noiseFloor",
            "results.cost",
            "results.costByLabel");

    @Test
    void aRunWithASummaryOpensFromItAlone() throws Exception {
        Path dir = ResultsViewReadOnlyTest.fixture(results.resolve("summary-20260101-000000"));
        AtomicReference<ResultsView> view = new AtomicReference<>();
        SwingUtilities.invokeAndWait(() -> view.set(new ResultsView(results, TARGETS)));
        Map<String, List<String>> fromJtls = opened(view.get(), dir, false);

        RunDirectory d = new RunDirectory(dir);
        RunConclusion.of(
                d, ExperimentFile.read(d.experiment(), TARGETS), d.runs().read(), true, false);
        assertTrue(Files.isRegularFile(d.summary()), "the run's end wrote " + d.summary());
        for (RunRecord r : d.runs().read()) {
            byte[] junk = new byte[(int) Files.size(d.jtl(r.run()))];
            Arrays.fill(junk, (byte) '#');
            junk[junk.length - 1] = '\n';
            Files.write(d.jtl(r.run()), junk); // same name and size: the summary still matches them
        }

        long started = System.nanoTime();
        Map<String, List<String>> fromSummary = opened(view.get(), dir, true);
        long ms = (System.nanoTime() - started) / 1_000_000;
        assertEquals(fromJtls, fromSummary, "every table as from the JTLs");
        assertTrue(ms < 2_000, "opened in " + ms + " ms");
        assertTrue(fromSummary.get("results.heading").get(0).startsWith("readonly — "), fromSummary.toString());
    }

    /**
     * Opens the run directory as the list does (its progress saying whether from the summary) and returns the heading and every table's rows once shown.
     */
    private static Map<String, List<String>> opened(ResultsView view, Path dir, boolean fromSummary) throws Exception {
        AtomicReference<String> said = new AtomicReference<>();
        SwingUtilities.invokeAndWait(() -> {
            view.open(dir);
            said.set(((JProgressBar) ResultsViewReadOnlyTest.find(view, "results.reading")).getString());
        });
        assertEquals(fromSummary, said.get().startsWith("reading " + dir.getFileName() + ": its summary"), said.get());
        String heading = ResultsViewReadOnlyTest.waitForShown(view);
        Map<String, List<String>> shown = new LinkedHashMap<>();
        shown.put("results.heading", List.of(heading));
        SwingUtilities.invokeAndWait(() -> {
            for (String name : TABLES) {
                JTable t = (JTable) ResultsViewReadOnlyTest.find(view, name);
                List<String> rows = new ArrayList<>();
                for (int r = 0; r < t.getRowCount(); r++) {
                    StringBuilder row = new StringBuilder();
                    for (int c = 0; c < t.getColumnCount(); c++) {
                        row.append(t.getValueAt(r, c)).append(" | ");
                    }
                    rows.add(row.toString());
                }
                if (name.equals("results.acrossRuns") || name.equals("results.samples")) {
                    assertTrue(!rows.isEmpty(), name + " has rows");
                }
                shown.put(name, rows);
            }
        });
        return shown;
    }
}
