package io.envbench.study.analysis;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.envbench.base.output.WholeRowFile;
import io.envbench.study.experiment.PlannedRun;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * {@code runs.csv}: one row per run as it ended (round, environment, repetition, start, end, status,
 * samples, start-to-ready, first sample, the CPUs of JMeter, the target and docker-proxy), appended and flushed at once, so a killed runner leaves every finished run on record and
 * {@code --resume} knows what is missing. A rerun of a run appends a new row; the last one counts. Each row is
 * written whole ({@link WholeRowFile}), and read back only up to the last whole row.
 */
public final class RunsFile {
    static final String[] HEAD = {
        "round",
        "environment",
        "repetition",
        "start",
        "end",
        "status",
        "samples",
        "startToReadyMs",
        "firstSample",
        "jmeterCpus",
        "targetCpus",
        "dockerProxyCpus"
    };
    private static final CSVFormat FORMAT =
            CSVFormat.DEFAULT.builder().setRecordSeparator("\n").build();

    private final Path file;

    public RunsFile(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /**
     * Appends the run's row (with the header, when the file is new) in one write. When it cannot be written (the disk
     * is full) the file is cut back to its last whole row, and an IOException says so.
     */
    public synchronized void append(RunRecord r) throws IOException {
        boolean fresh = !Files.exists(file) || Files.size(file) == 0;
        StringBuilder rows = new StringBuilder();
        try (CSVPrinter p = new CSVPrinter(rows, FORMAT)) {
            if (fresh) {
                p.printRecord((Object[]) HEAD);
            }
            p.printRecord(
                    r.run().round(),
                    r.run().environment(),
                    r.run().repetition(),
                    r.start(),
                    r.end(),
                    r.status(),
                    r.samples(),
                    r.startToReadyMs(),
                    r.firstSample() == null ? "" : r.firstSample(),
                    r.cpus().jmeter(),
                    r.cpus().target(),
                    r.cpus().dockerProxy());
        }
        try (WholeRowFile out = new WholeRowFile(file, false)) {
            if (!out.append(rows.toString())) {
                throw new IOException(file + ": " + out.stoppedBecause().orElse("write failed")
                        + "; it ends at its last whole row, without run "
                        + r.run().id());
            }
        }
    }

    /** The last record of every run, in the order they were first written; empty when there is no file. */
    public List<RunRecord> read() throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        Map<String, RunRecord> last = new LinkedHashMap<>();
        try (Reader r = WholeRowFile.wholeRows(file)) { // a row cut by a full disk or a kill is no record
            for (CSVRecord rec : FORMAT.builder()
                    .setHeader()
                    .setSkipHeaderRecord(true)
                    .build()
                    .parse(r)) {
                try {
                    PlannedRun run = new PlannedRun(
                            Integer.parseInt(rec.get("round")),
                            rec.get("environment"),
                            Integer.parseInt(rec.get("repetition")));
                    last.put(
                            run.id(),
                            new RunRecord(
                                    run,
                                    Instant.parse(rec.get("start")),
                                    Instant.parse(rec.get("end")),
                                    rec.get("status"),
                                    Long.parseLong(rec.get("samples")),
                                    Long.parseLong(rec.get("startToReadyMs")),
                                    rec.get("firstSample").isEmpty() ? null : Instant.parse(rec.get("firstSample")),
                                    // files written before the CPUs were recorded have no such columns
                                    new RunRecord.Cpus(
                                            optional(rec, "jmeterCpus"),
                                            optional(rec, "targetCpus"),
                                            optional(rec, "dockerProxyCpus"))));
                } catch (RuntimeException e) {
                    throw new IOException(file + " line " + rec.getRecordNumber() + ": not a runs.csv row ("
                            + e.getMessage() + "); was the run directory written by envbench run?");
                }
            }
        }
        return new ArrayList<>(last.values());
    }

    private static String optional(CSVRecord rec, String column) {
        return rec.isMapped(column) && rec.isSet(column) ? rec.get(column) : "";
    }
}
