package io.envbench.jmeter.visualizers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.swing.SwingUtilities;

import io.envbench.jmeter.GuiTests;
import io.envbench.measure.stats.Comparison;
import io.envbench.report.ComparisonReport;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Live samples from many threads are all counted; adding never waits for the table and charts being built. */
class ComparisonVisualizerTest {
    private static final int COUNT = Arrays.asList(ComparisonReport.TABLE_HEAD).indexOf("count");

    @BeforeAll
    static void jmeter() {
        // no java.awt.headless here: the GUI tests of the same JVM open real windows
        GuiTests.initJMeter();
    }

    private static SampleResult sample(String label, long start, long elapsed) {
        SampleResult r = SampleResult.createTestSample(start, start + elapsed);
        r.setSampleLabel(label);
        r.setSuccessful(true);
        return r;
    }

    /** The rows on the event thread, once everything queued there has run. */
    private static List<String[]> shown(ComparisonVisualizer v) throws Exception {
        List<String[]> rows = new ArrayList<>();
        SwingUtilities.invokeAndWait(() -> rows.addAll(v.shownRows()));
        return rows;
    }

    private static String count(List<String[]> rows, String label) {
        return rows.stream()
                .filter(r -> r[0].equals(label))
                .findFirst()
                .map(r -> r[COUNT])
                .orElse("none");
    }

    private static void addFromThreads(ComparisonVisualizer v, int threads, int each) throws InterruptedException {
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String label = "page " + (t % 2);
            Thread thread = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    v.add(sample(label, 1_700_000_000_000L + i, i % 7));
                }
            });
            thread.start();
            started.add(thread);
        }
        for (Thread t : started) {
            t.join();
        }
    }

    @Test
    void samplesOfManyThreadsAreAllCounted() throws Exception {
        ComparisonVisualizer v = new ComparisonVisualizer();
        addFromThreads(v, 8, 10_000);
        v.refreshNow().get(30, TimeUnit.SECONDS);
        List<String[]> rows = shown(v);
        assertEquals("40000", count(rows, "page 0"));
        assertEquals("40000", count(rows, "page 1"));
        assertEquals("80000", count(rows, Comparison.TOTAL));
        SwingUtilities.invokeAndWait(() -> assertTrue(v.shownCharts() > 0, "charts"));
    }

    @Test
    void addingAndBuildingNeverWaitForTheEventThread() throws Exception {
        ComparisonVisualizer v = new ComparisonVisualizer();
        CountDownLatch edtFree = new CountDownLatch(1);
        SwingUtilities.invokeLater(() -> {
            try {
                edtFree.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                addFromThreads(v, 4, 50_000);
                v.refreshNow().get(); // table rows and charts built while the event thread is blocked
            });
        } finally {
            edtFree.countDown();
        }
        assertEquals("200000", count(shown(v), Comparison.TOTAL));
    }

    @Test
    void clearDropsWhatWasCountedAndQueued() throws Exception {
        ComparisonVisualizer v = new ComparisonVisualizer();
        addFromThreads(v, 2, 1_000);
        v.refreshNow().get(30, TimeUnit.SECONDS);
        addFromThreads(v, 2, 500); // queued, not counted yet
        v.clearData();
        v.refreshNow().get(30, TimeUnit.SECONDS);
        assertEquals(List.of(), shown(v));
        v.add(sample("page", 1_700_000_000_000L, 1));
        v.refreshNow().get(30, TimeUnit.SECONDS);
        assertEquals("1", count(shown(v), "page"));
    }

    /** Files of the same name from two folders (run1/static-web.jtl, run2/static-web.jtl) are two runs, not one. */
    @Test
    void filesOfTheSameNameFromTwoFoldersAreTwoRuns(@TempDir Path dir) throws Exception {
        List<Path> files = new ArrayList<>();
        for (String run : List.of("run1", "run2")) {
            Path f = dir.resolve(run).resolve("static-web.jtl");
            Files.createDirectories(f.getParent());
            files.add(Files.writeString(
                    f,
                    "timeStamp,elapsed,label,success,bytes,sentBytes,envbench.env\n"
                            + "1700000000000,5,page,true,10,1,bare\n1700000000100,6,page,true,10,1,bare\n"));
        }
        ComparisonVisualizer v = new ComparisonVisualizer();
        v.addFiles(files.subList(0, 1)).get(30, TimeUnit.SECONDS);
        v.addFiles(files.subList(1, 2)).get(30, TimeUnit.SECONDS); // one at a time, as a user adds them
        v.refreshNow().get(30, TimeUnit.SECONDS);
        List<String[]> rows = shown(v);
        assertEquals("4", count(rows, "page"));
        int runs = Arrays.asList(ComparisonReport.TABLE_HEAD).indexOf("runs");
        assertEquals(
                "2",
                rows.stream().filter(r -> r[0].equals("page")).findFirst().orElseThrow()[runs],
                "two runs, not one pooled");
    }
}
