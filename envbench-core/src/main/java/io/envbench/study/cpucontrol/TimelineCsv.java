package io.envbench.study.cpucontrol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.envbench.base.output.WholeRowFile;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * A controller's timeline as CSV, a row per action, each appended whole ({@link WholeRowFile}); the one timeline format,
 * written by the JMeter element and by a multi-tenant run (whose own events are {@code note} rows):
 * {@code time,seconds,tenant,kind,action,reason}; {@code time} is ISO-8601 UTC, {@code seconds} since the controller
 * started, {@code tenant} empty for host-wide actions (interrupt steering). Thread-safe.
 */
public final class TimelineCsv implements ControlTimeline, AutoCloseable {
    /** The header row. */
    public static final String HEADER = "time,seconds,tenant,kind,action,reason";

    private final WholeRowFile file;

    /**
     * Starts the file (emptied when it exists) with its header.
     *
     * @throws IOException naming the file, when it cannot be written
     */
    public TimelineCsv(Path file) throws IOException {
        this.file = new WholeRowFile(file, true);
        this.file.append(HEADER + "\n");
    }

    /** One row of a timeline file; {@code tenant} empty for the host. */
    public record Row(Instant time, double seconds, String tenant, String kind, String action, String reason) {}

    /** Reads a timeline file back (the JMeter element's, or a multi-tenant run's {@code timeline/RUN.csv}). */
    public static List<Row> read(Path file) throws IOException {
        List<Row> rows = new ArrayList<>();
        try (CSVParser p = CSVParser.parse(
                file,
                StandardCharsets.UTF_8,
                CSVFormat.DEFAULT
                        .builder()
                        .setHeader()
                        .setSkipHeaderRecord(true)
                        .build())) {
            for (CSVRecord r : p) {
                rows.add(new Row(
                        Instant.parse(r.get("time")),
                        Double.parseDouble(r.get("seconds")),
                        r.get("tenant"),
                        r.get("kind"),
                        r.get("action"),
                        r.get("reason")));
            }
        }
        return rows;
    }

    @Override
    public void acted(CpuAction a) {
        file.append(CSVFormat.DEFAULT.format(
                        a.at().toString(),
                        String.format(Locale.ROOT, "%.3f", a.sinceStart().toMillis() / 1000.0),
                        a.tenant(),
                        a.kind().name().toLowerCase(Locale.ROOT),
                        a.action(),
                        a.reason())
                + "\n");
    }

    public Path file() {
        return file.file();
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
