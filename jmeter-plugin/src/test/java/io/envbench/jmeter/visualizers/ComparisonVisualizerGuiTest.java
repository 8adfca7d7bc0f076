package io.envbench.jmeter.visualizers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Dimension;
import java.awt.Rectangle;
import java.awt.event.MouseEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import javax.swing.JTable;

import io.envbench.jmeter.GuiTests;
import io.envbench.measure.stats.Comparison;
import io.envbench.report.ComparisonReport;
import io.envbench.report.table.ComparisonTable;
import org.apache.jmeter.reporters.ResultCollector;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.assertj.swing.edt.GuiActionRunner;
import org.assertj.swing.fixture.FrameFixture;
import org.assertj.swing.fixture.JTableFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Comparison listener in a real window, fed real SampleResults as JMeter's threads feed it: columns sort by
 * number with TOTAL last, EnvBench's start samples are left out, cut cells have their text as a tooltip, the
 * export carries the resources of a metrics file.
 */
class ComparisonVisualizerGuiTest {
    private static final List<String> HEAD = Arrays.asList(ComparisonReport.TABLE_HEAD);
    private static final int LABEL = HEAD.indexOf("label");
    private static final int COUNT = HEAD.indexOf("count");
    private static final String LONG_LABEL = "GET /catalogue/" + "very-long-path-segment/".repeat(12) + "item.html";

    @TempDir
    Path dir;

    private FrameFixture window;
    private ComparisonVisualizer listener;

    @BeforeAll
    static void display() {
        GuiTests.requireDisplay();
        GuiTests.initJMeter();
    }

    @BeforeEach
    void open() {
        listener = GuiActionRunner.execute(ComparisonVisualizer::new);
        window = GuiTests.showInFrame("EnvBench Comparison", listener, new Dimension(1300, 640));
    }

    @AfterEach
    void close() {
        window.cleanUp();
    }

    /** Samples of one environment, added from this thread as a JMeter thread whose Environment Tag set it. */
    private void feed(String env, String label, int count, long elapsedMs) {
        JMeterVariables vars = new JMeterVariables();
        vars.put("envbench.env", env);
        JMeterContextService.getContext().setVariables(vars);
        for (int i = 0; i < count; i++) {
            SampleResult r = SampleResult.createTestSample(
                    1_700_000_000_000L + i * 10L, 1_700_000_000_000L + i * 10L + elapsedMs);
            r.setSampleLabel(label);
            r.setSuccessful(true);
            listener.add(r);
        }
    }

    private void feedAPlan() throws Exception {
        for (String env : List.of("bare", "docker-bridge")) {
            feed(env, "EnvBench start " + env, 1, 3000); // the start sampler's own sample: seconds, not milliseconds
            feed(env, "page 9", 9, 2);
            feed(env, "page 10", 10, 3);
            feed(env, "page 100", 100, 1);
            feed(env, LONG_LABEL, 2, 5);
        }
        listener.refreshNow().get(30, TimeUnit.SECONDS);
    }

    private static List<String> column(String[][] contents, int column) {
        List<String> c = new ArrayList<>();
        for (String[] row : contents) {
            c.add(row[column]);
        }
        return c;
    }

    private static void assertTotalsLastAndCountsSorted(String[][] contents, boolean ascending) {
        List<String> labels = column(contents, LABEL);
        int firstTotal = labels.indexOf(Comparison.TOTAL);
        assertTrue(firstTotal > 0, labels.toString());
        assertTrue(
                labels.subList(firstTotal, labels.size()).stream().allMatch(Comparison.TOTAL::equals),
                "TOTAL rows last: " + labels);
        List<Long> counts = column(contents, COUNT).subList(0, firstTotal).stream()
                .map(Long::parseLong)
                .toList();
        List<Long> sorted = new ArrayList<>(counts);
        sorted.sort(ascending ? null : Comparator.reverseOrder());
        assertEquals(sorted, counts, "counts in numeric order");
    }

    @Test
    void countSortsByNumberWithTotalLastAndStartSamplesAreLeftOut() throws Exception {
        feedAPlan();
        JTableFixture table = window.table("comparison-table");
        table.tableHeader().clickColumn(COUNT);
        String[][] ascending = table.contents();
        assertTotalsLastAndCountsSorted(ascending, true);
        assertEquals(
                List.of("2", "2", "9", "9", "10", "10", "100", "100"),
                column(ascending, COUNT).subList(0, 8),
                "as numbers: 9 before 10 before 100");
        table.tableHeader().clickColumn(COUNT);
        String[][] descending = table.contents();
        assertTotalsLastAndCountsSorted(descending, false);
        assertEquals("100", descending[0][COUNT]);
        table.tableHeader().clickColumn(LABEL);
        List<String> byLabel = column(table.contents(), LABEL);
        assertEquals(Comparison.TOTAL, byLabel.get(byLabel.size() - 1), "TOTAL last when sorted by label too");

        List<String> labels = column(descending, LABEL);
        assertFalse(labels.stream().anyMatch(l -> l.startsWith("EnvBench start")), "start samples counted: " + labels);
        for (String[] row : descending) {
            if (row[LABEL].equals(Comparison.TOTAL)) {
                assertEquals("121", row[COUNT], "TOTAL without the start sample");
            }
        }
        GuiTests.screenshot(window.target(), "comparison-sorted-by-count");
    }

    @Test
    void columnsFitTheirTextAndACutLabelHasItsFullTextAsTooltip() throws Exception {
        feedAPlan();
        JTable table = window.table("comparison-table").target();
        GuiActionRunner.execute(() -> {
            for (int c = 0; c < table.getColumnCount(); c++) {
                int header = table.getTableHeader()
                        .getDefaultRenderer()
                        .getTableCellRendererComponent(table, table.getColumnName(c), false, false, -1, c)
                        .getPreferredSize()
                        .width;
                assertTrue(
                        table.getColumnModel().getColumn(c).getWidth() >= header,
                        "header cut: " + table.getColumnName(c));
                for (int r = 0; r < table.getRowCount(); r++) {
                    int cell = table.prepareRenderer(table.getCellRenderer(r, c), r, c)
                            .getPreferredSize()
                            .width;
                    assertTrue(
                            table.getColumnModel().getColumn(c).getWidth()
                                    >= Math.min(cell, ComparisonTable.MAX_COLUMN_WIDTH - 14),
                            "cell cut: " + table.getValueAt(r, c));
                }
            }
            int longRow = -1;
            for (int r = 0; r < table.getRowCount(); r++) {
                if (table.getValueAt(r, LABEL).toString().equals(LONG_LABEL)) {
                    longRow = r;
                }
            }
            assertTrue(longRow >= 0);
            Rectangle cell = table.getCellRect(longRow, LABEL, true);
            MouseEvent hover = new MouseEvent(table, MouseEvent.MOUSE_MOVED, 0, 0, cell.x + 5, cell.y + 5, 0, false);
            assertEquals("label: " + LONG_LABEL, table.getToolTipText(hover));
            return null;
        });
    }

    @Test
    void theExcludeFieldIsKeptInTheElementAndABadExpressionIsNamed() throws Exception {
        JTableFixture unused = window.table("comparison-table");
        ResultCollector element = GuiActionRunner.execute(() -> (ResultCollector) listener.createTestElement());
        assertEquals(
                ComparisonVisualizer.DEFAULT_EXCLUDE,
                element.getPropertyAsString(ComparisonVisualizer.EXCLUDE, ComparisonVisualizer.DEFAULT_EXCLUDE));
        window.textBox("exclude").deleteText().enterText("^setup");
        GuiActionRunner.execute(() -> {
            listener.modifyTestElement(element);
            return null;
        });
        assertEquals("^setup", element.getPropertyAsString(ComparisonVisualizer.EXCLUDE));
        feed("bare", "setup login", 3, 1);
        feed("bare", "EnvBench start bare", 1, 3000); // counted now: the user's expression replaced the default
        listener.refreshNow().get(30, TimeUnit.SECONDS);
        List<String> labels = column(window.table("comparison-table").contents(), LABEL);
        assertTrue(labels.contains("EnvBench start bare") && !labels.contains("setup login"), labels.toString());

        window.textBox("exclude").deleteText().enterText("page[");
        window.label("exclude-problem")
                .requireText(Pattern.compile(
                        "Exclude labels: 'page\\[' is not a regular expression .*; correct it, or empty the field.*"));

        ResultCollector other = new ResultCollector();
        other.setProperty(ComparisonVisualizer.EXCLUDE, "^other");
        GuiActionRunner.execute(() -> {
            listener.configure(other);
            return null;
        });
        window.textBox("exclude").requireText("^other");
        window.label("exclude-problem").requireText("");
    }

    @Test
    void theExportHasTheResourcesOfTheMetricsFile() throws Exception {
        feedAPlan();
        Path metrics = Files.writeString(dir.resolve("metrics.csv"), """
                timestamp,environment,host.cpu.pct,process.jmeter.cpu.pct,target.cpu.pct
                1700000000000,bare,50.0,30.0,20.0
                1700000001000,bare,70.0,35.0,25.0
                1700000002000,docker-bridge,60.0,31.0,40.0
                """);
        GuiActionRunner.execute(() -> {
            listener.useMetricsFile(metrics);
            return null;
        });
        Path out = dir.resolve("report");
        listener.exportTo(out).get(60, TimeUnit.SECONDS);
        String md = Files.readString(out.resolve("comparison.md"));
        assertTrue(md.contains(ComparisonReport.METRICS_HEAD[1]), "no resources section:\n" + md);
        assertTrue(md.contains("| bare | 60.0 / 70.0 |"), md);
        assertFalse(md.contains("EnvBench start"), "the export counts what the table counts");
    }

    /** One run's result file: 400 samples, one every 25 ms (10 s), all of {@code env}. */
    private static String runFile(String env, int run) {
        StringBuilder b = new StringBuilder(
                "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,"
                        + "bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,envbench.env\n");
        for (int i = 0; i < 400; i++) {
            long elapsed = (env.equals("bare") ? 20 : 30) + run + i % 7;
            b.append(1_700_000_000_000L + i * 25L)
                    .append(',')
                    .append(elapsed)
                    .append(",GET /,200,OK,t 1-1,text,true,,100,10,1,1,,")
                    .append(elapsed)
                    .append(",0,0,")
                    .append(env)
                    .append('\n');
        }
        return b.toString();
    }

    /**
     * A run directory's files: each run's first 4 s (its experiment's warm-up) left out as the runner's report leaves
     * them, and the status line says so; the same files elsewhere count whole, and it says that.
     */
    @Test
    void aRunDirectorysWarmUpIsLeftOutAsTheRunnerDoesAndTheStatusSaysWhich() throws Exception {
        Path run = Files.createDirectories(dir.resolve("static-web-20261126-120000/jtl"));
        Files.writeString(run.resolveSibling("experiment.yaml"), """
                name: warmup-check
                target: nginx-static
                environments:
                  - { name: bare, placement: bare }
                  - { name: docker-bridge, placement: docker }
                load:
                  http: { path: /, threads: 1, warmupSeconds: 4, durationSeconds: 10 }
                """);
        JMeterUtils.setProperty(
                "envbench.targets.dir",
                Path.of("..", "targets").toAbsolutePath().toString());
        List<Path> inRun = new ArrayList<>();
        for (String env : List.of("bare", "docker-bridge")) {
            inRun.add(Files.writeString(run.resolve(env + "-r1.jtl"), runFile(env, 1)));
        }
        listener.addFiles(inRun).get(30, TimeUnit.SECONDS);
        listener.refreshNow().get(30, TimeUnit.SECONDS);
        String[][] rows = window.table("comparison-table").contents();
        List<String> counts = column(rows, COUNT);
        assertTrue(counts.contains("240") && !counts.contains("400"), "10 s less the first 4 s: " + counts);
        String said = window.label("comparison-status").text();
        assertTrue(said.contains("warm-up left out as the runner does (first 4 s of each run"), said);

        GuiActionRunner.execute(() -> listener.clearData());
        listener.refreshNow().get(30, TimeUnit.SECONDS);
        Path elsewhere = Files.writeString(dir.resolve("bare-copy.jtl"), runFile("bare", 1));
        listener.addFiles(List.of(elsewhere)).get(30, TimeUnit.SECONDS);
        listener.refreshNow().get(30, TimeUnit.SECONDS);
        assertTrue(column(window.table("comparison-table").contents(), COUNT).contains("400"));
        window.label("comparison-status")
                .requireText(
                        Pattern.compile(".*1 file\\(s\\) outside a run directory counted whole, warm-up included.*"));
    }

    /**
     * Result files of four runs per environment: the Noise floor tab says, per environment compared with the baseline,
     * how many runs it had and the smallest change they could show, as the exported report does.
     */
    @Test
    void resultFilesOfSeveralRunsShowTheirNoiseFloor() throws Exception {
        List<Path> files = new ArrayList<>();
        for (String env : List.of("bare", "docker-bridge")) {
            for (int run = 1; run <= 4; run++) {
                files.add(Files.writeString(dir.resolve(env + "-r" + run + ".jtl"), runFile(env, run)));
            }
        }
        listener.addFiles(files).get(30, TimeUnit.SECONDS);
        listener.refreshNow().get(30, TimeUnit.SECONDS);
        window.tabbedPane().selectTab("Noise floor");
        JTableFixture noise = window.table("noise-floor");
        String[][] rows = noise.contents();
        assertEquals(
                1, rows.length, "one row per environment compared with the baseline: " + Arrays.deepToString(rows));
        assertEquals("docker-bridge", rows[0][0]);
        assertEquals("4 + 4", rows[0][1], "its runs and the baseline's");
        assertTrue(rows[0][3].endsWith("%"), "the 90% line's smallest detectable change: " + rows[0][3]);
        GuiTests.screenshot(window.target(), "comparison-noise-floor");
    }
}
