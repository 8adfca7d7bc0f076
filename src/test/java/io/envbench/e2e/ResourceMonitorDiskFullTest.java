package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.JtlReader;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jmeter -n} with the Resource Monitor, the JTL and the metrics file on a 2 MiB file system (a tmpfs mounted as
 * root for the test, as {@link DiskFullTest} does) that a Debug Sampler fills within seconds: JMeter's own writer
 * swallows the error, the Resource Monitor does not. The console and jmeter.log name the file, the disk to free and
 * what happens to the test; {@code envbench.onWriteFailure=stop} (the default) stops it, {@code mark} lets it run to
 * its end; either way JMeter exits with 1, and the metrics file ends at its last whole row. No Docker: the host alone
 * is measured. JMeter's log and console output go beside, not onto the small disk.
 */
@BesideOthers("a small file system of its own, the host measured but nothing asserted on it")
class ResourceMonitorDiskFullTest {
    @TempDir
    Path dir;

    Path mount;

    @BeforeEach
    void smallFileSystem() throws Exception {
        mount = SmallDisk.mount(dir.resolve("small"), "2m");
    }

    @AfterEach
    void unmount() throws Exception {
        SmallDisk.unmount(mount);
    }

    @Test
    void aFullDiskStopsTheTestSaysSoOnTheConsoleAndJMeterExitsWithOne() throws Exception {
        Result r = jmeter(120, List.of());
        System.out.printf("a JTL on a 2 MiB file system: exit %d after %d s%n%s%n", r.exit, r.seconds, r.console);
        String jtl = mount.resolve("r.jtl").toFile().getCanonicalPath();
        assertEquals(1, r.exit, "the results are incomplete: exit 1; " + r.console);
        assertTrue(r.seconds < 60, "the 120 s test stopped when the disk filled: " + r.seconds + " s");
        assertTrue(
                r.console.contains("EnvBench: JTL " + jtl + ": JMeter could not write it: no space left on device (")
                        && r.console.contains("Free space on " + mount.toFile().getCanonicalPath() + ", or write the"
                                + " JTL (-l, or the listener's file) to a disk with room. The test is stopped"
                                + " (envbench.onWriteFailure=stop)."),
                "the console names the JTL, the disk to free and the stop: " + r.console);
        assertTrue(r.console.contains("EnvBench: this test's results are incomplete: "), r.console);
        assertFalse(r.console.contains("\tat "), "no stack trace: " + r.console);
        assertTrue(r.log.contains("ERROR o.a.j.u.JMeterUtils: EnvBench: JTL " + jtl), "jmeter.log at ERROR");
        assertMetricsFileEndsAtAWholeRow();
        // the JTL as JMeter left it: its whole rows are the samples, a cut last row is none
        Path jtlFile = mount.resolve("r.jtl");
        String text = Files.readString(jtlFile);
        long wholeRows = text.chars().filter(c -> c == '\n').count() - 1;
        assertEquals(wholeRows, JtlReader.read(jtlFile, s -> {}), "only whole JTL rows are samples");
    }

    @Test
    void markLetsTheTestRunToItsEndAndJMeterExitsWithOne() throws Exception {
        Result r = jmeter(8, List.of("-Jenvbench.onWriteFailure=mark"));
        System.out.printf("mark: exit %d after %d s%n%s%n", r.exit, r.seconds, r.console);
        assertEquals(1, r.exit, r.console);
        assertTrue(r.seconds >= 8, "the 8 s test ran to its end: " + r.seconds + " s");
        assertTrue(
                r.console.contains("The test runs on (envbench.onWriteFailure=mark); its results are incomplete"),
                r.console);
        assertTrue(r.console.contains("EnvBench: this test's results are incomplete: "), r.console);
        assertMetricsFileEndsAtAWholeRow();
    }

    private record Result(int exit, long seconds, String console, String log) {}

    /** The Debug Sampler as fast as it goes for {@code seconds}, into r.jtl and envbench-metrics.csv on the mount. */
    private Result jmeter(int seconds, List<String> props) throws Exception {
        Path plan = Jmeter.plan(
                dir.resolve("plan.jmx"),
                ResourceMonitorTest.monitor("${__P(envbench.metrics.file,envbench-metrics.csv)}"),
                Jmeter.DEBUG_SAMPLER,
                -1,
                seconds);
        List<String> all = new ArrayList<>(List.of("-Jenvbench.metrics.interval.ms=200"));
        all.addAll(props);
        long t0 = System.nanoTime();
        Process p = Jmeter.start(plan, mount.resolve("r.jtl"), all, dir, dir);
        if (!p.waitFor(seconds + 90L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("JMeter did not finish; see " + dir.resolve("r.jtl.log"));
        }
        return new Result(
                p.exitValue(),
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0),
                Files.readString(dir.resolve("r.jtl.out")),
                Files.readString(dir.resolve("r.jtl.log")));
    }

    private void assertMetricsFileEndsAtAWholeRow() throws Exception {
        Path metrics = mount.resolve("envbench-metrics.csv");
        assertTrue(Files.exists(metrics), "metrics were written until the disk filled");
        String m = Files.readString(metrics);
        assertTrue(m.endsWith("\n"), "the metrics file ends with a whole row");
        try (Reader in = Files.newBufferedReader(metrics);
                CSVParser csv = CSVParser.parse(
                        in,
                        CSVFormat.DEFAULT
                                .builder()
                                .setHeader()
                                .setSkipHeaderRecord(true)
                                .build())) {
            int width = csv.getHeaderNames().size();
            List<CSVRecord> rows = csv.getRecords();
            rows.forEach(row -> assertEquals(width, row.size(), "row " + row.getRecordNumber() + " is whole"));
            MetricsFile.read(metrics); // EnvBench's reader takes it as it is, without an error
        }
    }
}
