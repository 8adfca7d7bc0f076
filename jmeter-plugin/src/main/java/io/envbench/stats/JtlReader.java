package io.envbench.stats;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Streams the samples of a CSV JTL (JMeter's default result format, with a header line). The
 * environment of each sample is its {@code envbench.env} column; a file without that column is one
 * environment named after the file.
 */
public final class JtlReader {
    public static final String ENV_COLUMN = "envbench.env";

    private JtlReader() {
    }

    /** @return how many samples were read */
    public static long read(Path file, Consumer<Sample> out) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException(file + ": no such file");
        }
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            r.mark(4096);
            String first = r.readLine();
            if (first == null) {
                throw new IOException(file + ": empty file, no samples");
            }
            if (first.startsWith("<?xml") || first.startsWith("<testResults")) {
                throw new IOException(file + ": XML JTL is not supported; save results as CSV "
                        + "(jmeter.save.saveservice.output_format=csv, the default)");
            }
            if (!first.contains("timeStamp") || !first.contains("elapsed")) {
                throw new IOException(file + ": not a CSV JTL with a header line (timeStamp,elapsed,label,...)");
            }
            r.reset();
            return parse(file, r, out);
        }
    }

    private static long parse(Path file, Reader r, Consumer<Sample> out) throws IOException {
        String fallbackEnv = file.getFileName().toString().replaceFirst("\\.(jtl|csv)$", "");
        CSVFormat fmt = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build();
        long n = 0;
        try (CSVParser p = CSVParser.parse(r, fmt)) {
            Map<String, Integer> h = p.getHeaderMap();
            int ts = col(file, h, "timeStamp");
            int el = col(file, h, "elapsed");
            int lb = col(file, h, "label");
            Integer ok = h.get("success");
            Integer by = h.get("bytes");
            Integer sb = h.get("sentBytes");
            Integer env = h.get(ENV_COLUMN);
            for (CSVRecord rec : p) {
                if (rec.size() < h.size()) {
                    continue; // a truncated last line (JMeter killed mid-write)
                }
                try {
                    out.accept(new Sample(env == null ? fallbackEnv : rec.get(env), rec.get(lb), Long.parseLong(rec.get(ts)),
                            Long.parseLong(rec.get(el)), ok == null || Boolean.parseBoolean(rec.get(ok)),
                            by == null ? 0 : Long.parseLong(rec.get(by)), sb == null ? 0 : Long.parseLong(rec.get(sb))));
                    n++;
                } catch (NumberFormatException e) {
                    throw new IOException(file + " line " + rec.getRecordNumber() + ": not a number (" + e.getMessage() + ")");
                }
            }
        } catch (IllegalStateException | java.io.UncheckedIOException e) {
            throw new IOException(file + ": " + e.getMessage());
        }
        return n;
    }

    private static int col(Path file, Map<String, Integer> header, String name) throws IOException {
        Integer i = header.get(name);
        if (i == null) {
            throw new IOException(file + ": the JTL has no '" + name + "' column");
        }
        return i;
    }
}
