package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.JtlReader;
import io.envbench.measure.results.ResultFiles;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code envbench run} on a real small file system (a 64 KiB tmpfs, mounted as root for the test): the run fills
 * it; the metrics file and {@code runs.csv} stop cleanly with a warning and stay valid CSV up to their last whole row,
 * the run is recorded failed, no further run starts, the printed report says the data ends early, and nothing
 * half-written is read as data. And outputs that cannot be written at all (a read-only file system, a file where a
 * folder should be) are an error at the start naming the path, with nothing run. Bare metal only: no Docker needed.
 */
@BesideOthers("a small file system of its own; bare-metal nginx on port 18492, no Docker")
class DiskFullTest {
    static final String EXPERIMENT = """
            name: disk-full
            description: a run directory on a 64 KiB file system
            target: nginx-static
            port: 18492
            environments:
              - name: bare
                placement: bare
            repetitions: 3
            load:
              http:
                path: /page-4k.html
                threads: 1
                requestsPerSecond: 40
                rampUpSeconds: 0
                warmupSeconds: 1
                durationSeconds: 30
            """;

    @TempDir
    Path dir;

    Path mount;

    @BeforeEach
    void smallFileSystem() throws Exception {
        mount = SmallDisk.mount(dir.resolve("small"), "64k");
    }

    @AfterEach
    void unmount() throws Exception {
        SmallDisk.unmount(mount);
    }

    @Test
    void aFullDiskStopsTheFilesCleanlyAtTheirLastWholeRowAndTheReportSaysTheDataEndsEarly() throws Exception {
        Path experiment = dir.resolve("experiment.yaml");
        Files.writeString(experiment, EXPERIMENT);
        Path out = mount.resolve("run");
        Path console = dir.resolve("console.txt");
        long t0 = System.nanoTime();
        int exit = Cli.run(
                console, 120, "run", experiment.toString(), "-o", out.toString(), "--metrics-interval-ms", "200");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
        String text = Files.readString(console);
        System.out.printf(
                "a run on a 64 KiB file system: exit %d after %d s; free bytes then: %d%n",
                exit, seconds, Files.getFileStore(mount).getUsableSpace());
        assertEquals(1, exit, "runs are missing: exit 1; " + text);
        assertTrue(
                seconds < 40,
                "the run stopped when the disk filled, not after its 30 s and two more runs: " + seconds + " s");
        assertTrue(
                text.contains("WARNING: ") && text.contains("no space left on device"), "a warning says why: " + text);
        assertTrue(text.contains("DATA ENDS EARLY: "), "the report says the data ends early: " + text);
        assertFalse(text.contains("\tat "), "no stack trace: " + text);

        // runs.csv: valid CSV, whole rows only; the one run it holds failed because its output stopped
        Path runsCsv = out.resolve("runs.csv");
        if (Files.exists(runsCsv)) {
            assertTrue(
                    Files.size(runsCsv) == 0 || Files.readString(runsCsv).endsWith("\n"),
                    "runs.csv ends with a whole row");
            try (Reader r = Files.newBufferedReader(runsCsv)) {
                List<CSVRecord> rows = CSVFormat.DEFAULT
                        .builder()
                        .setHeader()
                        .setSkipHeaderRecord(true)
                        .build()
                        .parse(r)
                        .getRecords();
                rows.forEach(
                        row -> assertTrue(row.get("status").startsWith("failed: output stopped: "), row.toString()));
                assertTrue(rows.size() <= 1, "no further run was started: " + rows);
            }
        }
        assertTrue(text.contains("failed: output stopped: "), "the run is recorded failed, why: " + text);

        // the metrics file: stopped with a warning, valid CSV up to its last whole row, read back as data
        Path metrics = out.resolve("metrics/bare-r1.csv");
        assertTrue(Files.exists(metrics), "metrics/bare-r1.csv was written until the disk filled");
        String m = Files.readString(metrics);
        assertTrue(m.endsWith("\n"), "the metrics file ends with a whole row");
        int rows;
        // plain CSV: the header first (the sources are in metrics/bare-r1.csv.json)
        assertTrue(
                m.startsWith("timestamp,environment,"),
                "the header first: " + m.lines().findFirst());
        try (CSVParser p = CSVParser.parse(
                m,
                CSVFormat.DEFAULT
                        .builder()
                        .setHeader()
                        .setSkipHeaderRecord(true)
                        .build())) {
            int width = p.getHeaderNames().size();
            List<CSVRecord> records = p.getRecords();
            records.forEach(rec ->
                    assertEquals(width, rec.size(), "every row as wide as the header: row " + rec.getRecordNumber()));
            rows = records.size();
        }
        assertTrue(rows >= 1, "some rows before the disk filled");
        assertEquals(
                rows,
                MetricsFile.read(metrics).summary("bare", "host.cpu.pct").samples(),
                "every whole row is read back, nothing more");
        Path jtl = ResultFiles.kept(out.resolve("jtl/bare-r1.jtl"));
        System.out.printf(
                "metrics file: %d whole rows, %d bytes; JTL: %d bytes%n",
                rows, Files.size(metrics), Files.exists(jtl) ? Files.size(jtl) : 0);

        // the JTL (kept plain when the full disk left no room to compress it): a cut last row is no sample
        if (Files.exists(jtl) && Files.size(jtl) > 0) {
            String j;
            try (InputStream in = ResultFiles.open(jtl)) {
                j = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            long wholeRows = j.chars().filter(c -> c == '\n').count() - 1;
            assertEquals(Math.max(0, wholeRows), JtlReader.read(jtl, s -> {}), "only whole JTL rows are samples");
        }
        try (Stream<Path> all = Files.walk(out)) {
            assertEquals(
                    List.of(),
                    all.filter(f -> f.toString().endsWith(".part")
                                    || f.toString().endsWith(".gz.tmp"))
                            .toList(),
                    "nothing half-written is left");
        }
        assertFalse(Files.exists(out.resolve("experiment.yaml.part")));
    }

    @Test
    void anOutputThatCannotBeWrittenAtAllIsAnErrorAtTheStartNamingThePath() throws Exception {
        Path experiment = dir.resolve("experiment.yaml");
        Files.writeString(experiment, EXPERIMENT);

        // a read-only file system (root writes anywhere else)
        SmallDisk.readOnly(mount);
        Path console = dir.resolve("ro.txt");
        long t0 = System.nanoTime();
        int exit = Cli.run(
                console,
                60,
                "run",
                experiment.toString(),
                "-o",
                mount.resolve("run").toString());
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        String text = Files.readString(console);
        System.out.printf("read-only output: exit %d in %d ms: %s%n", exit, ms, text.strip());
        assertEquals(3, exit, text);
        assertTrue(
                text.contains("cannot write the run directory " + mount.resolve("run"))
                        && text.contains("read-only file system"),
                text);
        assertFalse(text.contains("\tat "), "no stack trace: " + text);
        assertFalse(Files.exists(mount.resolve("run")), "nothing made");

        // a file where a folder should be
        Path out = dir.resolve("blocked");
        Files.createDirectories(out);
        Files.writeString(out.resolve("jtl"), "not a folder");
        console = dir.resolve("file.txt");
        exit = Cli.run(console, 60, "run", experiment.toString(), "-o", out.toString());
        text = Files.readString(console);
        System.out.printf("a file where a folder should be: exit %d: %s%n", exit, text.strip());
        assertEquals(3, exit, text);
        assertTrue(text.contains(out.resolve("jtl") + " is a file where a folder should be"), text);
        assertFalse(Files.exists(out.resolve("runs.csv")), "nothing ran");
    }
}
