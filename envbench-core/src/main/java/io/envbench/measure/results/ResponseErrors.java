package io.envbench.measure.results;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.envbench.measure.engines.EngineMetrics;
import net.jcip.annotations.NotThreadSafe;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * The failed samples of runs, counted by environment, label, response code and message: what a study that saw
 * "HTTP 422 and 502 under high load" needs next to its error %. Read from the JTL's own columns ({@code responseCode},
 * {@code responseMessage}, {@code success}); samples that start before a run's warm-up ends are left out, as in the
 * figures. Not thread-safe: one reader fills it.
 */
@NotThreadSafe
public final class ResponseErrors {
    /** One kind of error: how many samples of that label failed with that code and message in that environment. */
    public record Row(String environment, String label, String responseCode, String responseMessage, long count) {}

    private final Map<List<String>, Long> counts = new TreeMap<>(Comparator.comparing(Object::toString));

    /** Counts the failed samples of one run's JTL that start at or after {@code fromMs}, under {@code environment}. */
    public void read(Path jtl, String environment, long fromMs) throws IOException {
        try (Reader r = ResultFiles.reader(jtl);
                CSVParser p = CSVFormat.DEFAULT
                        .builder()
                        .setHeader()
                        .setSkipHeaderRecord(true)
                        .build()
                        .parse(r)) {
            if (!p.getHeaderMap().containsKey("success") || !p.getHeaderMap().containsKey("responseCode")) {
                return; // a JTL without them has nothing to say here; the figures' reader names a damaged file
            }
            for (CSVRecord rec : p) {
                if (!rec.isConsistent()
                        || "true".equals(rec.get("success"))
                        || EngineMetricsLabel.is(rec.get("label"))) {
                    continue;
                }
                long start = Long.parseLong(rec.get("timeStamp"));
                if (start < fromMs) {
                    continue;
                }
                String message = p.getHeaderMap().containsKey("responseMessage") ? rec.get("responseMessage") : "";
                counts.merge(List.of(environment, rec.get("label"), rec.get("responseCode"), message), 1L, Long::sum);
            }
        } catch (
                UncheckedIOException
                        e) { // commons-csv's iterator wraps a read that failed (a compressed file cut short)
            throw e.getCause();
        }
    }

    /** Counts a kind of error as {@link #rows()} gave it (a run's {@code summary.json} keeps them). */
    public void add(Row row) {
        counts.merge(
                List.of(row.environment(), row.label(), row.responseCode(), row.responseMessage()),
                row.count(),
                Long::sum);
    }

    /** Every kind of error, by environment, label, code and message. */
    public List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        counts.forEach((k, n) -> rows.add(new Row(k.get(0), k.get(1), k.get(2), k.get(3), n)));
        return rows;
    }

    /** The rows grouped by environment and code alone (every label together). */
    public Map<String, Map<String, Long>> byEnvironmentAndCode() {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        for (Row r : rows()) {
            out.computeIfAbsent(r.environment(), e -> new TreeMap<>()).merge(r.responseCode(), r.count(), Long::sum);
        }
        return out;
    }

    public boolean isEmpty() {
        return counts.isEmpty();
    }

    /** The label remote engines' metrics samples carry: no load, so no error of the target's. */
    private static final class EngineMetricsLabel {
        static boolean is(String label) {
            return EngineMetrics.isCarrier(label);
        }
    }
}
