package io.envbench.cpucontrol;

import io.envbench.output.WholeRowFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import org.apache.commons.csv.CSVFormat;

/**
 * A controller's timeline as CSV, a row per action, each appended whole ({@link WholeRowFile}):
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

    @Override
    public void acted(CpuAction a) {
        file.append(CSVFormat.DEFAULT.format(a.at().toString(), String.format(Locale.ROOT, "%.3f", a.sinceStart().toMillis() / 1000.0),
                a.tenant(), a.kind().name().toLowerCase(Locale.ROOT), a.action(), a.reason()) + "\n");
    }

    public Path file() {
        return file.file();
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
