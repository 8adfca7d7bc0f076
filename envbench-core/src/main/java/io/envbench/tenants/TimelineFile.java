package io.envbench.tenants;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's {@code timeline/RUN.csv}: a header {@code time,tenant,action,why}, then a row per action, flushed at once (a
 * killed run keeps what happened until then). Thread-safe. A row that cannot be written is logged, never thrown at the
 * controller.
 */
public final class TimelineFile implements Timeline, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TimelineFile.class);
    static final String[] HEADER = {"time", "tenant", "action", "why"};
    private final Path file;
    private final Clock clock;
    private final Writer out;
    private final CSVPrinter csv;

    /** One row of a timeline file. */
    public record Row(Instant time, String tenant, String action, String why) {
    }

    public TimelineFile(Path file, Clock clock) throws IOException {
        this.file = file;
        this.clock = clock;
        Files.createDirectories(file.toAbsolutePath().getParent());
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        this.csv = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setHeader(HEADER).setRecordSeparator('\n').build());
        out.flush();
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized void record(String tenant, String action, String why) {
        try {
            csv.printRecord(Instant.now(clock).toString(), tenant, action, why == null ? "" : why);
            csv.flush();
        } catch (IOException e) {
            log.warn("timeline {}: cannot write '{} {} {}': {}", file, tenant, action, why, e.toString());
        }
    }

    @Override
    public synchronized void close() throws IOException {
        csv.close();
    }

    /** Reads a timeline file back. */
    public static List<Row> read(Path file) throws IOException {
        List<Row> rows = new ArrayList<>();
        try (CSVParser p = CSVParser.parse(file, StandardCharsets.UTF_8, CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build())) {
            for (CSVRecord r : p) {
                rows.add(new Row(Instant.parse(r.get("time")), r.get("tenant"), r.get("action"), r.get("why")));
            }
        }
        return rows;
    }
}
