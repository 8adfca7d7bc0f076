package io.envbench.metrics;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.envbench.output.WholeRowFile;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * A metrics CSV written by {@link MetricsCollector}, read back per environment: each metric's average
 * and peak, and its values over time (seconds since the environment's first row).
 */
public final class MetricsFile {
    /** One metric of one environment. */
    public record Summary(double average, double peak, int samples) {
    }

    private final Map<String, Map<String, List<double[]>>> series = new LinkedHashMap<>();

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
        MetricsFile m = this;
        // only whole rows: a last line without its end was cut (a killed writer, a full disk), it is no data
        try (Reader r = WholeRowFile.wholeRows(file);
             CSVParser csv = CSVParser.parse(r, CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build())) {
            List<String> header = csv.getHeaderNames();
            if (header.size() < 3 || !header.get(0).equals("timestamp") || !header.get(1).equals("environment")) {
                throw new IOException(file + ": not an EnvBench metrics file (timestamp,environment,...)");
            }
            Map<String, Long> first = new LinkedHashMap<>();
            for (CSVRecord rec : csv) {
                if (rec.size() < header.size()) {
                    continue; // a truncated last line
                }
                String env = rec.get(1);
                long ts = Long.parseLong(rec.get(0));
                if (ts < fromEpochMs) {
                    continue;
                }
                double t = (ts - first.computeIfAbsent(env, e -> ts)) / 1000.0;
                Map<String, List<double[]>> byMetric = m.series.computeIfAbsent(env, e -> new LinkedHashMap<>());
                for (int i = 2; i < header.size(); i++) {
                    String v = rec.get(i);
                    if (!v.isEmpty()) {
                        byMetric.computeIfAbsent(header.get(i), x -> new ArrayList<>()).add(new double[] {t, Double.parseDouble(v)});
                    }
                }
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new IOException(file + ": " + e.getMessage());
        }
    }

    public java.util.Set<String> environments() {
        return series.keySet();
    }

    /** The metric names an environment has values of. */
    public java.util.Set<String> metrics(String environment) {
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
    public Summary summaryOfSum(String environment, java.util.regex.Pattern metrics) {
        TreeMap<Double, Double> sums = new TreeMap<>();
        series.getOrDefault(environment, Map.of()).forEach((name, points) -> {
            if (metrics.matcher(name).matches()) {
                points.forEach(p -> sums.merge(p[0], p[1], Double::sum));
            }
        });
        double sum = sums.values().stream().mapToDouble(Double::doubleValue).sum();
        double peak = sums.values().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        return new Summary(sums.isEmpty() ? Double.NaN : sum / sums.size(), peak, sums.size());
    }
}
