package io.envbench.study.tenants;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.envbench.measure.results.JtlReader;
import io.envbench.measure.stats.ElapsedDistribution;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Per-tenant request figures from the JTL while JMeter writes it: each {@link #drain} reads the whole lines added since
 * the last one and gives, per tenant (its {@code envbench.env} column), the requests that ended, their errors, mean and
 * 90% line (nearest rank). Not thread-safe: one reader (the supplier of {@link TenantMetrics}).
 */
final class LiveTenantFigures {
    /** One tenant's requests since the previous drain. */
    record Window(long requests, long errors, ElapsedDistribution elapsed) {}

    private final Path jtl;
    private long position;
    private List<String> header;
    private int elapsedColumn = -1;
    private int successColumn = -1;
    private int envColumn = -1;

    LiveTenantFigures(Path jtl) {
        this.jtl = jtl;
    }

    /** The tenants' requests in the lines written since the last call (whole lines only; a cut line waits). */
    Map<String, Window> drain() throws IOException {
        Map<String, Window> out = new HashMap<>();
        if (!Files.isRegularFile(jtl)) {
            return out;
        }
        byte[] added;
        try (RandomAccessFile f = new RandomAccessFile(jtl.toFile(), "r")) {
            long length = f.length();
            if (length <= position) {
                return out;
            }
            added = new byte[(int) Math.min(length - position, 64L << 20)];
            f.seek(position);
            f.readFully(added);
        }
        int lastNewline = -1;
        for (int i = added.length - 1; i >= 0; i--) {
            if (added[i] == '\n') {
                lastNewline = i;
                break;
            }
        }
        if (lastNewline < 0) {
            return out;
        }
        position += lastNewline + 1;
        String text = new String(added, 0, lastNewline + 1, StandardCharsets.UTF_8);
        for (String line : text.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            if (header == null) {
                header = parse(line);
                elapsedColumn = header.indexOf("elapsed");
                successColumn = header.indexOf("success");
                envColumn = header.indexOf(JtlReader.ENV_COLUMN);
                continue;
            }
            if (envColumn < 0 || elapsedColumn < 0) {
                continue;
            }
            List<String> row = parse(line);
            if (row.size() != header.size()) {
                continue; // a message with a newline in it: rare, and a controller's window loses one request
            }
            Window w = out.computeIfAbsent(row.get(envColumn), t -> new Window(0, 0, new ElapsedDistribution()));
            try {
                w.elapsed().add(Long.parseLong(row.get(elapsedColumn)));
            } catch (NumberFormatException e) {
                continue;
            }
            boolean ok = successColumn < 0 || Boolean.parseBoolean(row.get(successColumn));
            out.put(row.get(envColumn), new Window(w.requests() + 1, w.errors() + (ok ? 0 : 1), w.elapsed()));
        }
        return out;
    }

    private static List<String> parse(String line) throws IOException {
        try (CSVParser p = CSVParser.parse(line, CSVFormat.DEFAULT)) {
            List<CSVRecord> r = p.getRecords();
            return r.isEmpty() ? List.of() : r.get(0).toList();
        }
    }
}
