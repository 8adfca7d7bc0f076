package io.envbench.measure.metrics;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import io.envbench.base.output.OutputFolder;
import io.envbench.base.output.WholeRowFile;
import net.jcip.annotations.GuardedBy;
import net.jcip.annotations.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics time series: plain CSV, its header first, then one row per tick,
 * {@code timestamp,environment,<metric>...}, so pandas, spreadsheets and other CSV readers take it as it is. Where each
 * group of columns came from ({@code host.* = procfs of this host}, {@code container.web.* = cgroup v1}) goes beside it
 * in {@code <file>.json} ({@link MetricsFile#sourcesFile}), written whole (beside, then moved over) when a source
 * appears or changes. Columns appear as containers and processes do; when one appears, the file is rewritten once with
 * the wider header (beside, then moved over), so the file is always a complete, valid CSV. Read it with
 * {@link MetricsFile}.
 * Each row is written whole ({@link WholeRowFile}): when the disk fills, the file is cut back to its last whole
 * row and stops, with {@link #stoppedBecause()} saying why; a folder that cannot be written at all fails the
 * constructor. Thread-safe.
 */
@ThreadSafe
public final class MetricsCsvWriter implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MetricsCsvWriter.class);
    private final Path file;
    /** How the rows' channel is wrapped: as it is, but for a test's full disk. */
    private final UnaryOperator<FileChannel> channels;

    @GuardedBy("this")
    private final LinkedHashSet<String> columns = new LinkedHashSet<>();

    @GuardedBy("this")
    private final Map<String, String> sources = new LinkedHashMap<>();
    /** A row is built here and written in one call: no String per value or per row. */
    @GuardedBy("this")
    private final StringBuilder row = new StringBuilder(4096);

    @GuardedBy("this")
    private WholeRowFile out;

    @GuardedBy("this")
    private String stoppedBecause;

    @GuardedBy("this")
    private boolean closed;

    @GuardedBy("this")
    private long lastRowEpochMs;

    /** @throws IOException naming the path, when the file's folder cannot be made or written */
    public MetricsCsvWriter(Path file) throws IOException {
        this(file, UnaryOperator.identity());
    }

    /** For tests: the rows go through {@code channels}' wrapping of the file's channel (a full disk). */
    MetricsCsvWriter(Path file, UnaryOperator<FileChannel> channels) throws IOException {
        this.file = file;
        this.channels = channels;
        OutputFolder.requireWritable(file.toAbsolutePath().getParent(), "metrics file's folder");
        Files.deleteIfExists(file);
        // an earlier file's sources would be read as this one's
        Files.deleteIfExists(MetricsFile.sourcesFile(file));
    }

    public Path file() {
        return file;
    }

    /** A row without sources (those written before stay); as {@link #write(long, String, Map, Map)}. */
    public synchronized boolean write(long epochMs, String environment, Map<String, Double> values) {
        return write(epochMs, environment, values, Map.of());
    }

    /**
     * Appends a row; once the file has stopped (disk full), rows are dropped.
     *
     * @param sources column pattern ({@code host.*}, {@code container.NAME.*}) -> where its values came from; a
     *                new pattern or a changed source rewrites the sources file beside the metrics file
     * @return false when the row was not written because the file stopped, now or before
     */
    public synchronized boolean write(
            long epochMs, String environment, Map<String, Double> values, Map<String, String> sources) {
        if (closed) {
            // a row after close would open the file again, with nobody left to close it
            throw new IllegalStateException("metrics file " + file + " is closed: no more rows");
        }
        if (stoppedBecause != null) {
            return false;
        }
        boolean newSource = false;
        for (Map.Entry<String, String> s : sources.entrySet()) {
            if (!s.getValue().equals(this.sources.get(s.getKey()))) {
                newSource = true;
                break;
            }
        }
        if (out == null || !columns.containsAll(values.keySet())) {
            List<String> old = new ArrayList<>(columns);
            columns.addAll(values.keySet());
            try {
                rewrite(old);
            } catch (IOException e) {
                columns.retainAll(old);
                return stop(OutputFolder.why(e));
            }
        }
        if (newSource) {
            // after the rows' file: the sources never name columns the file could not take
            Map<String, String> oldSources = new LinkedHashMap<>(this.sources);
            this.sources.putAll(sources);
            try {
                MetricsFile.writeSources(file, this.sources);
            } catch (IOException e) {
                this.sources.clear();
                this.sources.putAll(oldSources);
                return stop(OutputFolder.why(e));
            }
        }
        row.setLength(0);
        row.append(epochMs).append(',');
        if (environment.indexOf(',') >= 0 || environment.indexOf('"') >= 0) {
            // several environments at once ("a,b"): one quoted CSV field
            row.append('"').append(environment.replace("\"", "\"\"")).append('"');
        } else {
            row.append(environment);
        }
        for (String c : columns) {
            Double v = values.get(c);
            row.append(',');
            if (v != null && !v.isNaN()) {
                append(row, v);
            }
        }
        row.append('\n');
        if (!out.append(row)) {
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
        log.warn(
                "metrics file {}: {}; it stops here and ends early, valid up to its last whole row ({}); the collector goes on without it",
                file,
                why,
                lastRowEpochMs == 0 ? "no row written" : "the row of " + Instant.ofEpochMilli(lastRowEpochMs));
        return false;
    }

    /** Writes the file again with the current header, the rows so far padded to the new width. */
    private void rewrite(List<String> oldColumns) throws IOException {
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
                    boolean header = true;
                    // only whole rows: a row cut by a full disk is no data
                    try (BufferedReader r = new BufferedReader(WholeRowFile.wholeRows(file))) {
                        for (String line = r.readLine(); line != null; line = r.readLine()) {
                            if (header) {
                                header = false;
                                continue;
                            }
                            w.write(line + pad + "\n");
                        }
                    }
                }
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(tmp); // nothing half-written stays; the file keeps its narrower header and rows
            if (Files.exists(file)) {
                out = new WholeRowFile(file, false, channels);
            }
            throw e;
        }
        out = new WholeRowFile(file, false, channels);
    }

    /** Three decimals at most, without String.format (hundreds of values a tick). */
    static String format(double v) {
        StringBuilder b = new StringBuilder(24);
        append(b, v);
        return b.toString();
    }

    /** Appends {@code v} with three decimals at most (none for a whole number), without making a String. */
    static void append(StringBuilder b, double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            b.append((long) v);
            return;
        }
        if (Math.abs(v) >= 1e15 || Double.isInfinite(v)) {
            b.append(String.format(Locale.ROOT, "%.3f", v));
            return;
        }
        long milli = Math.round(Math.abs(v) * 1000);
        if (v < 0 && milli != 0) {
            b.append('-');
        }
        long frac = milli % 1000;
        b.append(milli / 1000).append('.');
        if (frac < 100) {
            b.append('0');
        }
        if (frac < 10) {
            b.append('0');
        }
        b.append(frac);
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        if (out != null) {
            out.close();
            out = null;
        }
    }
}
