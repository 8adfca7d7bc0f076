package io.envbench.metrics;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.envbench.output.OutputFolder;
import io.envbench.output.WholeRowFile;

/**
 * The metrics time series: one CSV row per tick, {@code timestamp,environment,<metric>...}. Columns
 * appear as containers and processes do; when one appears, the file is rewritten once with the wider
 * header (beside, then moved over), so the file is always a complete, valid CSV. Each row is written whole
 * ({@link WholeRowFile}): when the disk fills, the file is cut back to its last whole row and stops, with
 * {@link #stoppedBecause()} saying why; a folder that cannot be written at all fails the constructor.
 */
public final class MetricsCsvWriter implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MetricsCsvWriter.class);
    private final Path file;
    private final LinkedHashSet<String> columns = new LinkedHashSet<>();
    private WholeRowFile out;
    private String stoppedBecause;
    private long lastRowEpochMs;

    /** @throws IOException naming the path, when the file's folder cannot be made or written */
    public MetricsCsvWriter(Path file) throws IOException {
        this.file = file;
        OutputFolder.requireWritable(file.toAbsolutePath().getParent(), "metrics file's folder");
        Files.deleteIfExists(file);
    }

    public Path file() {
        return file;
    }

    /**
     * Appends a row; once the file has stopped (disk full), rows are dropped.
     *
     * @return false when the row was not written because the file stopped, now or before
     */
    public synchronized boolean write(long epochMs, String environment, Map<String, Double> values) {
        if (stoppedBecause != null) {
            return false;
        }
        if (!columns.containsAll(values.keySet())) {
            List<String> old = new ArrayList<>(columns);
            columns.addAll(values.keySet());
            try {
                widen(old);
            } catch (IOException e) {
                columns.retainAll(old);
                return stop(OutputFolder.why(e));
            }
        }
        StringBuilder b = new StringBuilder().append(epochMs).append(',').append(environment);
        for (String c : columns) {
            Double v = values.get(c);
            b.append(',');
            if (v != null && !v.isNaN()) {
                b.append(format(v));
            }
        }
        if (!out.append(b.append('\n').toString())) {
            return stop(out.stoppedBecause().orElse("write failed"));
        }
        lastRowEpochMs = epochMs;
        return true;
    }

    /** Why the file stopped taking rows (e.g. {@code no space left on device}); empty while it takes them. */
    public synchronized Optional<String> stoppedBecause() {
        return Optional.ofNullable(stoppedBecause);
    }

    private boolean stop(String why) {
        stoppedBecause = why;
        log.warn("metrics file {}: {}; it stops here and ends early, valid up to its last whole row ({}); the collector goes on without it",
                file, why, lastRowEpochMs == 0 ? "no row written" : "the row of " + java.time.Instant.ofEpochMilli(lastRowEpochMs));
        return false;
    }

    private void widen(List<String> oldColumns) throws IOException {
        if (out != null) {
            out.close();
            out = null;
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".part");
        try {
            try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                w.write("timestamp,environment," + String.join(",", columns) + "\n");
                if (Files.exists(file)) {
                    String pad = ",".repeat(columns.size() - oldColumns.size());
                    try (BufferedReader r = new BufferedReader(WholeRowFile.wholeRows(file))) {
                        r.readLine(); // the old header
                        for (String line = r.readLine(); line != null; line = r.readLine()) {
                            w.write(line + pad + "\n");
                        }
                    }
                }
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(tmp); // nothing half-written stays; the file keeps its narrower header and rows
            if (Files.exists(file)) {
                out = new WholeRowFile(file, false);
            }
            throw e;
        }
        out = new WholeRowFile(file, false);
    }

    /** Three decimals at most, without String.format (hundreds of values a tick). */
    static String format(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        if (Math.abs(v) >= 1e15 || Double.isInfinite(v)) {
            return String.format(Locale.ROOT, "%.3f", v);
        }
        long milli = Math.round(Math.abs(v) * 1000);
        String frac = Long.toString(1000 + milli % 1000).substring(1);
        return (v < 0 && milli != 0 ? "-" : "") + (milli / 1000) + "." + frac;
    }

    @Override
    public synchronized void close() throws IOException {
        if (out != null) {
            out.close();
            out = null;
        }
    }
}
