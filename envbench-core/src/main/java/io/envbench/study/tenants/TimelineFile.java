package io.envbench.study.tenants;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.envbench.study.cpucontrol.CpuAction;
import io.envbench.study.cpucontrol.TimelineCsv;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's {@code timeline/RUN.csv} in the one timeline format ({@link TimelineCsv}: {@code time,seconds,tenant,kind,action,reason},
 * each row appended whole, so a killed run keeps what happened until then): the controller's actions with their kind,
 * the run's own events as {@code note} rows, {@code seconds} since the file was opened. Thread-safe. A row that
 * cannot be written is logged, never thrown at the controller.
 */
public final class TimelineFile implements Timeline, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TimelineFile.class);
    private final TimelineCsv csv;
    private final Clock clock;
    private final Instant opened;

    /** One row of a timeline file; {@code tenant} is {@link Timeline#ALL} for the host and the run. */
    public record Row(Instant time, String tenant, String action, String why) {}

    public TimelineFile(Path file, Clock clock) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        this.csv = new TimelineCsv(file);
        this.clock = clock;
        this.opened = Instant.now(clock);
    }

    public Path file() {
        return csv.file();
    }

    @Override
    public synchronized void record(String tenant, String action, String why) {
        Instant now = Instant.now(clock);
        write(new CpuAction(
                now,
                Duration.between(opened, now),
                tenant.equals(ALL) ? "" : tenant,
                CpuAction.Kind.NOTE,
                action,
                why == null ? "" : why));
    }

    @Override
    public synchronized void acted(CpuAction a) {
        write(a);
    }

    private void write(CpuAction a) {
        try {
            csv.acted(a);
        } catch (RuntimeException e) {
            log.warn("timeline {}: cannot write '{}': {}", csv.file(), a.describe(), e.toString());
        }
    }

    @Override
    public synchronized void close() throws IOException {
        csv.close();
    }

    /** Reads a timeline file back: every row, the host's and the run's under {@link Timeline#ALL}. */
    public static List<Row> read(Path file) throws IOException {
        return TimelineCsv.read(file).stream()
                .map(r -> new Row(r.time(), r.tenant().isEmpty() ? ALL : r.tenant(), r.action(), r.reason()))
                .toList();
    }
}
