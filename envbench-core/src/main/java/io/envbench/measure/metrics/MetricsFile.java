package io.envbench.measure.metrics;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.envbench.base.output.WholeRowFile;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * A metrics CSV written by {@link MetricsCollector}, read back per environment: each metric's average and peak, and its
 * values over time (seconds since the environment's first row). Where each column's values came from is in the sources
 * file beside it ({@link #sourcesFile}: {@code metrics.csv.json}); files written before that have it in a first
 * comment line ({@code # sources: host.*=procfs of this host; container.web.*=cgroup v1}), still read.
 */
public final class MetricsFile {
    /**
     * How a metrics file is read: a header row, and {@code #} comment lines before it in files written before the
     * sources moved to their own file. Not shared as a public constant: commons-csv is shaded in the plugin jar.
     */
    static final CSVFormat CSV_FORMAT = CSVFormat.DEFAULT
            .builder()
            .setHeader()
            .setSkipHeaderRecord(true)
            .setCommentMarker('#')
            .build();

    /** One metric of one environment. */
    public record Summary(double average, double peak, int samples) {}

    private final Map<String, Map<String, List<double[]>>> series = new LinkedHashMap<>();
    /** Column pattern (host.*, container.NAME.*) -> source, from the files' sources files (or comment lines). */
    private final Map<String, String> sources = new LinkedHashMap<>();

    public static MetricsFile read(Path file) throws IOException {
        return read(Map.of(file, Long.MIN_VALUE));
    }

    /**
     * Several files (one per run) as one: their rows pooled, the time of each file counted from its own
     * start, and each file's rows before its instant (epoch ms: the end of the run's warm-up) left out.
     */
    public static MetricsFile read(Map<Path, Long> filesFromEpochMs) throws IOException {
        MetricsFile m = new MetricsFile();
        for (Map.Entry<Path, Long> f : filesFromEpochMs.entrySet()) {
            m.add(f.getKey(), f.getValue());
        }
        return m;
    }

    private void add(Path file, long fromEpochMs) throws IOException {
        Map<String, Long> first = new LinkedHashMap<>();
        forEachRow(file, sources::putAll, row -> {
            if (row.epochMs() < fromEpochMs) {
                return;
            }
            double t = (row.epochMs() - first.computeIfAbsent(row.environment(), e -> row.epochMs())) / 1000.0;
            Map<String, List<double[]>> byMetric =
                    series.computeIfAbsent(row.environment(), e -> new LinkedHashMap<>());
            row.values()
                    .forEach((metric, v) -> byMetric.computeIfAbsent(metric, x -> new ArrayList<>())
                            .add(new double[] {t, v}));
        });
    }

    /**
     * One whole row of a metrics file.
     *
     * @param values the metrics that have a value in this row, in the file's column order
     */
    public record Row(long epochMs, String environment, Map<String, Double> values) {}

    /**
     * Reads a metrics file row by row: the one reader of the format, for the report and the Resource Monitor. A row
     * with another number of fields than the header, or a field that is no finite number, is refused with the file
     * and line; only the last row may be cut (the collector stopped mid-write), and is left out.
     */
    public static void forEachRow(Path file, Consumer<Row> out) throws IOException {
        forEachRow(file, sources -> {}, out);
    }

    /**
     * As {@link #forEachRow(Path, java.util.function.Consumer)}, the file's sources (its sources file, else an old
     * file's comment line) first given to {@code sourcesOut}.
     */
    public static void forEachRow(Path file, Consumer<Map<String, String>> sourcesOut, Consumer<Row> out)
            throws IOException {
        Map<String, String> fromSourcesFile = readSources(file);
        // bytes that are not UTF-8 become U+FFFD: a damaged row is then reported with its line, not as a decoder error;
        // only whole rows: a last line without its end was cut (a killed writer, a full disk), it is no data
        try (Reader r = new BufferedReader(WholeRowFile.wholeRows(file));
                CSVParser csv = CSVParser.parse(r, CSV_FORMAT)) {
            Map<String, String> sources = sources(csv.getHeaderComment());
            sources.putAll(fromSourcesFile);
            sourcesOut.accept(sources);
            List<String> header = csv.getHeaderNames();
            if (header.size() < 3
                    || !header.get(0).equals("timestamp")
                    || !header.get(1).equals("environment")) {
                throw new IOException(
                        file + ": not an EnvBench metrics file (its header must start timestamp,environment,...)");
            }
            Iterator<CSVRecord> rows = csv.iterator();
            while (rows.hasNext()) {
                CSVRecord rec = rows.next();
                long line = csv.getCurrentLineNumber();
                if (rec.size() != header.size()) {
                    if (rec.size() < header.size() && !rows.hasNext()) {
                        continue; // the last row, cut (the collector stopped mid-write): no data
                    }
                    throw damaged(file, line, "has " + rec.size() + " fields, the header " + header.size());
                }
                long ts = wholeNumber(file, line, rec.get(0), header.get(0));
                Map<String, Double> values = new LinkedHashMap<>();
                for (int i = 2; i < header.size(); i++) {
                    String v = rec.get(i);
                    if (!v.isEmpty()) {
                        values.put(header.get(i), number(file, line, v, header.get(i)));
                    }
                }
                out.accept(new Row(ts, rec.get(1), values));
            }
        } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            throw new IOException(file + ": " + e.getMessage());
        }
    }

    private static IOException damaged(Path file, long line, String problem) {
        return new IOException(
                file + " line " + line + ": " + problem + "; the file is damaged (cut, or overwritten) here. "
                        + "Run that environment again, or cut the file before this line to keep the rows above it");
    }

    private static long wholeNumber(Path file, long line, String text, String column) throws IOException {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw damaged(file, line, column + " is '" + shown(text) + "', not a whole number");
        }
    }

    /** A finite number: NaN or Infinity in a figure would poison every average it joins. */
    private static double number(Path file, long line, String text, String column) throws IOException {
        double v;
        try {
            v = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw damaged(file, line, column + " is '" + shown(text) + "', not a number");
        }
        if (!Double.isFinite(v)) {
            throw damaged(file, line, column + " is '" + shown(text) + "', not a finite number");
        }
        return v;
    }

    private static String shown(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "..." : text;
    }

    /** Starts the comment line that named the sources in files written before {@link #sourcesFile}. */
    static final String SOURCES_PREFIX = "sources:";

    /** The sources named in an old file's header comment ("sources: host.*=procfs of this host; container.web.*=cgroup v1"). */
    static Map<String, String> sources(String headerComment) {
        Map<String, String> m = new LinkedHashMap<>();
        if (headerComment == null) {
            return m;
        }
        for (String line : headerComment.split("\n")) {
            String l = line.strip();
            if (!l.startsWith(SOURCES_PREFIX)) {
                continue;
            }
            for (String pair : l.substring(SOURCES_PREFIX.length()).split(";")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    m.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
                }
            }
        }
        return m;
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The sources file's key holding column pattern -> source. */
    static final String SOURCES_KEY = "sources";

    /**
     * Where the sources of a metrics file's columns are: beside it, its name + {@code .json} ({@code metrics.csv.json}),
     * so the metrics file stays plain CSV with one header row.
     */
    public static Path sourcesFile(Path metricsFile) {
        return metricsFile.resolveSibling(metricsFile.getFileName() + ".json");
    }

    /**
     * Writes the sources file of a metrics file, whole or not at all (beside, then moved over): {@code {"metricsFile":
     * "m.csv", "sources": {"host.*": "procfs of this host", ...}}}.
     */
    static void writeSources(Path metricsFile, Map<String, String> sources) throws IOException {
        Path target = sourcesFile(metricsFile);
        Path part = target.resolveSibling(target.getFileName() + ".part");
        ObjectNode root = JSON.createObjectNode();
        root.put("metricsFile", metricsFile.getFileName().toString());
        ObjectNode s = root.putObject(SOURCES_KEY);
        sources.forEach(s::put);
        try {
            Files.write(part, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
            Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(part);
            throw e;
        }
    }

    /** The sources in a metrics file's sources file; none when it has none (an old file, or one from elsewhere). */
    static Map<String, String> readSources(Path metricsFile) throws IOException {
        Path f = sourcesFile(metricsFile);
        Map<String, String> m = new LinkedHashMap<>();
        if (!Files.isRegularFile(f)) {
            return m;
        }
        String fix = "; delete it to read " + metricsFile.getFileName() + " without its sources";
        JsonNode root;
        try {
            root = JSON.readTree(f.toFile());
        } catch (JsonProcessingException e) {
            throw new IOException(f + ": not JSON (" + e.getOriginalMessage() + ")" + fix, e);
        }
        JsonNode s = root == null ? null : root.get(SOURCES_KEY);
        if (s == null || !s.isObject()) {
            throw new IOException(f + ": has no \"" + SOURCES_KEY + "\" object (column pattern -> source)" + fix);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = s.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual()) {
                throw new IOException(
                        f + ": the source of '" + e.getKey() + "' is " + e.getValue() + ", not text" + fix);
            }
            m.put(e.getKey(), e.getValue().asText());
        }
        return m;
    }

    /** Column pattern ({@code host.*}, {@code process.*}, {@code container.NAME.*}) -> where its values came from. */
    public Map<String, String> sources() {
        return Collections.unmodifiableMap(sources);
    }

    /** Where a column's values came from ("cgroup v1", "docker stats stream", ...), when the file says. */
    public Optional<String> sourceOf(String metric) {
        String best = null;
        for (String pattern : sources.keySet()) {
            String prefix = pattern.endsWith("*") ? pattern.substring(0, pattern.length() - 1) : pattern;
            if ((pattern.endsWith("*") ? metric.startsWith(prefix) : metric.equals(prefix))
                    && (best == null || pattern.length() > best.length())) {
                best = pattern;
            }
        }
        return Optional.ofNullable(best).map(sources::get);
    }

    public Set<String> environments() {
        return series.keySet();
    }

    /** The metric names an environment has values of. */
    public Set<String> metrics(String environment) {
        return series.getOrDefault(environment, Map.of()).keySet();
    }

    /** (seconds since the environment's first row, value) pairs; empty when absent. */
    public List<double[]> over(String environment, String metric) {
        return series.getOrDefault(environment, Map.of()).getOrDefault(metric, List.of());
    }

    public Summary summary(String environment, String metric) {
        List<double[]> v = over(environment, metric);
        double sum = 0;
        double peak = Double.NaN;
        for (double[] p : v) {
            sum += p[1];
            peak = Double.isNaN(peak) ? p[1] : Math.max(peak, p[1]);
        }
        return new Summary(v.isEmpty() ? Double.NaN : sum / v.size(), peak, v.size());
    }

    /** The sum of every metric whose name matches, per row (e.g. all disks' write rates). */
    public Summary summaryOfSum(String environment, Pattern metrics) {
        TreeMap<Double, Double> sums = new TreeMap<>();
        series.getOrDefault(environment, Map.of()).forEach((name, points) -> {
            if (metrics.matcher(name).matches()) {
                points.forEach(p -> sums.merge(p[0], p[1], Double::sum));
            }
        });
        double sum = sums.values().stream().mapToDouble(Double::doubleValue).sum();
        double peak =
                sums.values().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        return new Summary(sums.isEmpty() ? Double.NaN : sum / sums.size(), peak, sums.size());
    }
}
