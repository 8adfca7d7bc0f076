package io.envbench.measure.engines;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.envbench.measure.metrics.MetricsCsvWriter;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Splits the engines' metrics out of a run's JTL: every {@link EngineMetrics} carrier becomes a row of its engine's
 * metrics file, in the format of the runner's own ({@code timestamp,environment,<metric>...}), so the files read as
 * any metrics file ({@code envbench report --metrics}). The JTL is left as JMeter wrote it.
 */
public final class EngineMetricsFiles {
    private EngineMetricsFiles() {}

    /**
     * @param jtl         the controlling JMeter's JTL, named in messages
     * @param content     its text, as {@code io.envbench.measure.results.ResultFiles} opens it (closed here)
     * @param environment written in each row's environment column: the environment the run loaded
     * @param fileOf      the file of an engine, by its tag ({@code HOST:PORT} as {@code -R} named it)
     * @return engine tag -> its file, in the order engines first appear; empty when the JTL holds no carrier
     * @throws IOException the JTL cannot be read, has no {@value EngineMetrics#ENGINE_VARIABLE} or responseMessage
     *                     column (a JMeter without EnvBench's {@code sample_variables}), or a carrier is damaged
     */
    public static Map<String, Path> split(Path jtl, Reader content, String environment, Function<String, Path> fileOf)
            throws IOException {
        Map<String, MetricsCsvWriter> writers = new LinkedHashMap<>();
        Map<String, Path> files = new LinkedHashMap<>();
        try (BufferedReader r = new BufferedReader(content)) {
            String headerLine = r.readLine();
            if (headerLine == null) {
                return files;
            }
            List<String> header = CSVParser.parse(headerLine, CSVFormat.DEFAULT)
                    .getRecords()
                    .get(0)
                    .toList();
            int ts = header.indexOf("timeStamp");
            int label = header.indexOf("label");
            int message = header.indexOf("responseMessage");
            int engine = header.indexOf(EngineMetrics.ENGINE_VARIABLE);
            String line;
            long lineNo = 1;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (!line.contains(EngineMetrics.LABEL)) {
                    continue; // a load sample: nearly every line, not parsed
                }
                if (ts < 0 || label < 0 || message < 0 || engine < 0) {
                    throw new IOException(
                            jtl + ": engine metrics need the columns timeStamp, label, responseMessage and "
                                    + EngineMetrics.ENGINE_VARIABLE
                                    + " (sample_variables in the assembled JMeter's bin/user.properties, "
                                    + "on the controlling JMeter and on every engine)");
                }
                List<CSVRecord> recs = CSVParser.parse(line, CSVFormat.DEFAULT).getRecords();
                if (recs.size() != 1
                        || recs.get(0).size() < header.size()
                        || !EngineMetrics.isCarrier(recs.get(0).get(label))) {
                    continue; // a truncated last line, or a load sample whose text holds the label
                }
                CSVRecord rec = recs.get(0);
                String tag = rec.get(engine);
                try {
                    Map<String, Double> values = EngineMetrics.decode(rec.get(message));
                    MetricsCsvWriter w = writers.get(tag);
                    if (w == null) {
                        Path file = fileOf.apply(tag);
                        w = new MetricsCsvWriter(file);
                        writers.put(tag, w);
                        files.put(tag, file);
                    }
                    if (!w.write(
                            Long.parseLong(rec.get(ts)),
                            environment,
                            values)) { // the disk filled: say so, as for any write
                        throw new IOException(w.file() + ": "
                                + w.stoppedBecause().orElse("write failed") + "; it ends at its last whole row");
                    }
                } catch (IllegalArgumentException e) {
                    throw new IOException(
                            jtl + " line " + lineNo + ": a damaged engine metrics sample: " + e.getMessage());
                }
            }
        } finally {
            for (MetricsCsvWriter w : writers.values()) {
                w.close();
            }
        }
        return files;
    }
}
