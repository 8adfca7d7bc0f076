package io.envbench.jmeter.listeners;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.envbench.jmeter.EnvBenchProperties.OnWriteFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the Resource Monitor makes of a file of the test that cannot be written: told once, then stop or mark. */
class WriteWatchTest {
    @TempDir
    Path dir;

    private final List<String> told = new CopyOnWriteArrayList<>();
    private final AtomicInteger stops = new AtomicInteger();
    private final AtomicInteger exits = new AtomicInteger();

    private WriteWatch watch(OnWriteFailure policy, Map<Path, PrintWriter> jtls) {
        return new WriteWatch(policy, told::add, stops::incrementAndGet, () -> jtls);
    }

    /** JMeter's own writer of a JTL (ResultCollector): PrintWriter, OutputStreamWriter, BufferedOutputStream. */
    private static PrintWriter jmeterWriter(OutputStream file) {
        return new PrintWriter(new OutputStreamWriter(new BufferedOutputStream(file), StandardCharsets.UTF_8), false);
    }

    /** A disk that fills after {@code room} bytes: what fits goes in, then "No space left on device". */
    private static OutputStream fullAfter(Path file, int room) throws IOException {
        return new FilterOutputStream(new FileOutputStream(file.toFile())) {
            int left = room;

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                int fits = Math.min(left, len);
                out.write(b, off, fits);
                left -= fits;
                if (fits < len) {
                    throw new IOException("No space left on device");
                }
            }

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }
        };
    }

    private static void rows(PrintWriter w, int n) {
        w.println("timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,bytes");
        for (int i = 0; i < n; i++) {
            w.println("1700000000000,12,home,200,OK,load 1-1,true,4096");
        }
    }

    @Test
    void aJtlWhoseWriterFailedIsToldOnceNamingTheFileAndTheFixAndTheTestStops() throws IOException {
        Path jtl = dir.resolve("r.jtl");
        PrintWriter w = jmeterWriter(fullAfter(jtl, 1000));
        rows(w, 500); // 24 KB: JMeter's buffer went to the disk and failed; the writer keeps it to itself
        WriteWatch watch = watch(OnWriteFailure.STOP, Map.of(jtl, w));

        watch.checkJtls();
        assertEquals(1, told.size(), told.toString());
        String m = told.get(0);
        assertTrue(m.startsWith("EnvBench: JTL " + jtl + ": JMeter could not write it ("), m);
        assertTrue(m.contains("its rows end early. Check the file's permissions and that "), m); // the disk is not full
        assertTrue(m.endsWith("The test is stopped (envbench.onWriteFailure=stop)."), m);
        assertEquals(1, stops.get());

        watch.checkJtls();
        assertEquals(1, told.size(), "told once a file");
        assertEquals(1, stops.get(), "stopped once");

        assertTrue(watch.testEnded(exits::incrementAndGet));
        assertEquals(
                "EnvBench: this test's results are incomplete: 1 file could not be written to the end: [" + jtl
                        + "]; see the error above for the fix. JMeter's non-GUI mode exits with 1.",
                told.get(1));
        assertEquals(1, exits.get(), "jmeter -n exits with 1");
    }

    @Test
    void aJtlThatIsWrittenIsNoFailureAndTheTestEndsAsItWould() throws IOException {
        Path jtl = dir.resolve("r.jtl");
        PrintWriter w = jmeterWriter(new FileOutputStream(jtl.toFile()));
        rows(w, 500);
        WriteWatch watch = watch(OnWriteFailure.STOP, Map.of(jtl, w));
        watch.checkJtls();
        assertFalse(watch.testEnded(exits::incrementAndGet));
        assertEquals(List.of(), told);
        assertEquals(0, stops.get());
        assertEquals(0, exits.get());
        w.close();
        assertEquals(501, Files.readAllLines(jtl).size(), "the check flushed nothing away");
    }

    /** On Linux a removed file takes writes without an error: the check finds it gone. */
    @Test
    void aJtlRemovedDuringTheTestIsAFailureAndMarkLetsTheTestRunOn() throws IOException {
        Path jtl = dir.resolve("r.jtl");
        PrintWriter w = jmeterWriter(new FileOutputStream(jtl.toFile()));
        rows(w, 10);
        Files.delete(jtl);
        WriteWatch watch = watch(OnWriteFailure.MARK, Map.of(jtl, w));
        watch.checkJtls();
        assertEquals(
                List.of("EnvBench: JTL " + jtl + " was removed during the test: JMeter's rows go nowhere from now on."
                        + " Leave a JTL (and its folder) in place until the test ends. The test runs on"
                        + " (envbench.onWriteFailure=mark); its results are incomplete and JMeter's non-GUI mode"
                        + " exits with 1."),
                told);
        assertEquals(0, stops.get(), "mark: the test runs on");
        assertTrue(watch.testEnded(exits::incrementAndGet));
        assertEquals(1, exits.get(), "marked: jmeter -n exits with 1");
    }

    @Test
    void theMetricsFileStoppingIsToldWithTheFixAndStopsTheTestOnceWithAJtlFailingToo() throws IOException {
        Path metrics = dir.resolve("envbench-metrics.csv");
        Path jtl = dir.resolve("r.jtl");
        PrintWriter w = jmeterWriter(fullAfter(jtl, 0));
        rows(w, 500);
        WriteWatch watch = watch(OnWriteFailure.STOP, Map.of(jtl, w));

        watch.metricsFileStopped(metrics, "no space left on device");
        String m = told.get(0);
        assertTrue(
                m.startsWith(
                        "EnvBench Resource Monitor: metrics file " + metrics + " stopped: no space left on device ("),
                m);
        assertTrue(m.contains("); it ends at its last whole row. Free space on "), m);
        assertTrue(m.contains(", or set envbench.metrics.file (the Resource Monitor's file) to a disk with room."), m);
        watch.checkJtls();
        assertEquals(2, told.size(), told.toString());
        assertEquals(1, stops.get(), "the test is stopped once");
        assertEquals(List.of(metrics, jtl), watch.failed());
        watch.testEnded(exits::incrementAndGet);
        assertTrue(told.get(2).contains("2 files could not be written to the end: [" + metrics + ", " + jtl + "]"));
    }

    /** JMeter drops a -l file it cannot open without a word: not among its writers at the first check. */
    @Test
    void aResultsFileJMeterCouldNotOpenIsAFailure() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("r.jtl")); // a folder where the JTL should be
        WriteWatch watch = watch(OnWriteFailure.STOP, Map.of());
        watch.expectJtl(folder);
        watch.checkJtls();
        assertEquals(List.of(), told, "before the first sample JMeter may not have opened its files yet");
        watch.sampleSeen();
        watch.checkJtls();
        assertEquals(1, told.size(), told.toString());
        assertTrue(
                told.get(0)
                        .startsWith("EnvBench: JTL " + folder.toRealPath() + " (-l): JMeter could not open it for"
                                + " writing and writes no results ("),
                told.get(0));
        assertTrue(
                told.get(0)
                        .endsWith("Check that its folder can be written (permissions, not read-only) and that no"
                                + " folder has its name. The test is stopped (envbench.onWriteFailure=stop)."),
                told.get(0));
        assertEquals(1, stops.get());
    }

    @Test
    void aResultsFileAmongJMeterWritersIsNoFailure() throws IOException {
        Path jtl = dir.toRealPath().resolve("r.jtl");
        PrintWriter w = jmeterWriter(new FileOutputStream(jtl.toFile()));
        WriteWatch watch = watch(OnWriteFailure.STOP, Map.of(jtl, w));
        watch.expectJtl(dir.resolve("r.jtl"));
        watch.sampleSeen();
        watch.checkJtls();
        assertEquals(List.of(), told);
    }

    /** Not there before its first row; removed after it, it is a failure (its writer goes on into nothing). */
    @Test
    void theMetricsFileRemovedAfterItsFirstRowIsAFailure() throws IOException {
        Path metrics = dir.resolve("envbench-metrics.csv");
        WriteWatch watch = watch(OnWriteFailure.STOP, Map.of());
        watch.watchMetricsFile(metrics);
        watch.checkMetricsFile();
        assertEquals(List.of(), told, "not written yet: no failure");
        Files.writeString(metrics, "timestamp,environment\n");
        watch.checkMetricsFile();
        Files.delete(metrics);
        watch.checkMetricsFile();
        assertEquals(
                List.of("EnvBench Resource Monitor: metrics file " + metrics + " was removed during the test: its rows"
                        + " go nowhere from now on. Leave the metrics file and its folder in place until the test"
                        + " ends. The test is stopped (envbench.onWriteFailure=stop)."),
                told);
        assertEquals(1, stops.get());
    }

    @Test
    void aFullDiskIsNamedWithTheMountToFree() {
        Path jtl = Path.of("/mnt/results/r.jtl");
        assertEquals(
                Optional.of("EnvBench: JTL /mnt/results/r.jtl: JMeter could not write it: no space left on device"
                        + " (0 bytes free on /mnt/results); its rows end early and its last row may be cut. Free space"
                        + " on /mnt/results, or write the JTL (-l, or the listener's file) to a disk with room."),
                WriteWatch.jtlProblem(jtl, true, true, 0, "/mnt/results"));
        assertEquals(
                Optional.empty(),
                WriteWatch.jtlProblem(jtl, false, true, 0, "/mnt/results"),
                "a full disk the writer has not failed on yet is no failure");
        assertTrue(WriteWatch.metricsProblem(jtl, "read-only file system (/mnt/results/m.csv)", 5 << 20, "/mnt/results")
                .endsWith("(5 MiB free on /mnt/results); it ends at its last whole row. Check the file's permissions"
                        + " and that /mnt/results is writable (not read-only)."));
    }

    /** Another JMeter keeps its writers elsewhere: the JTLs go unwatched, said in the log, and nothing fails. */
    @Test
    void writersThatCannotBeFoundAreNoFailure() {
        WriteWatch watch = new WriteWatch(OnWriteFailure.STOP, told::add, stops::incrementAndGet, () -> {
            throw new NoSuchFieldException("files");
        });
        watch.checkJtls();
        watch.checkJtls();
        assertFalse(watch.testEnded(exits::incrementAndGet));
        assertEquals(List.of(), told);
        assertEquals(0, stops.get());
    }
}
