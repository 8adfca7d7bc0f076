package io.envbench.metrics;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The metrics time series: one CSV row per tick, {@code timestamp,environment,<metric>...}. Columns
 * appear as containers and processes do; when one appears, the file is rewritten once with the wider
 * header (beside, then moved over), so the file is always a complete, valid CSV.
 */
public final class MetricsCsvWriter implements AutoCloseable {
    private final Path file;
    private final LinkedHashSet<String> columns = new LinkedHashSet<>();
    private BufferedWriter out;

    public MetricsCsvWriter(Path file) throws IOException {
        this.file = file;
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.deleteIfExists(file);
    }

    public Path file() {
        return file;
    }

    public synchronized void write(long epochMs, String environment, Map<String, Double> values) throws IOException {
        if (!columns.containsAll(values.keySet())) {
            List<String> old = new ArrayList<>(columns);
            columns.addAll(values.keySet());
            widen(old);
        }
        StringBuilder b = new StringBuilder().append(epochMs).append(',').append(environment);
        for (String c : columns) {
            Double v = values.get(c);
            b.append(',');
            if (v != null && !v.isNaN()) {
                b.append(format(v));
            }
        }
        out.write(b.append('\n').toString());
        out.flush();
    }

    private void widen(List<String> oldColumns) throws IOException {
        if (out != null) {
            out.close();
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".part");
        try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write("timestamp,environment," + String.join(",", columns) + "\n");
            if (Files.exists(file)) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                String pad = ",".repeat(columns.size() - oldColumns.size());
                for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                    w.write(line + pad + "\n");
                }
            }
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
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
