package io.envbench.results;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

import io.envbench.engines.EngineMetrics;

/**
 * Streams the samples of a CSV JTL (JMeter's default result format, with a header line). The
 * environment of each sample is its {@code envbench.env} column; a file without that column is one
 * environment named after the file. Samples that carry a remote engine's metrics ({@link EngineMetrics}) are no
 * load and are left out.
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
            return parse(file, r, out, endsWithNewline(file));
        }
    }

    /**
     * Lines without quotes (nearly all of a JTL) are split here without making a String per field; a
     * record with quotes (a message with a comma, a quoted newline) is parsed by commons-csv.
     */
    private static long parse(Path file, BufferedReader r, Consumer<Sample> out, boolean complete) throws IOException {
        Columns c = new Columns(file, CSVParser.parse(r.readLine(), CSVFormat.DEFAULT).getRecords().get(0).toList());
        String fallbackEnv = file.getFileName().toString().replaceFirst("\\.(jtl|csv)$", "");
        long n = 0;
        long lineNo = 1;
        StringBuilder pending = null;
        int[] commas = new int[c.width + 1];
        String line;
        String next = r.readLine();
        while ((line = next) != null) {
            next = r.readLine();
            if (next == null && !complete) {
                break; // the last line has no end: JMeter was killed while writing it, so it is no sample
            }
            lineNo++;
            if (pending != null || line.indexOf('"') >= 0) {
                pending = pending == null ? new StringBuilder(line) : pending.append('\n').append(line);
                if (quotesOpen(pending)) {
                    continue; // a quoted field goes on on the next line
                }
                String record = pending.toString();
                pending = null;
                List<CSVRecord> recs = CSVParser.parse(record, CSVFormat.DEFAULT).getRecords();
                if (recs.size() == 1 && recs.get(0).size() >= c.width) {
                    n += deliver(c.sample(file, lineNo, recs.get(0), fallbackEnv), out);
                }
                continue;
            }
            int fields = 0;
            for (int i = line.indexOf(','); i >= 0 && fields < c.width; i = line.indexOf(',', i + 1)) {
                commas[fields++] = i;
            }
            if (fields + 1 < c.width) {
                continue; // a truncated last line (JMeter killed mid-write)
            }
            commas[fields] = line.length();
            n += deliver(c.sample(file, lineNo, line, commas, fallbackEnv), out);
        }
        return n;
    }

    /**
     * Hands a sample over unless it carries a remote engine's metrics ({@link EngineMetrics}): those are no load, and
     * no reader of results counts them. @return 1 when handed over, else 0
     */
    static int deliver(Sample s, Consumer<Sample> out) {
        if (EngineMetrics.isCarrier(s.label())) {
            return 0;
        }
        out.accept(s);
        return 1;
    }

    /** Whether the file's last byte ends a line (JMeter ends every record with one). */
    private static boolean endsWithNewline(Path file) throws IOException {
        try (var ch = java.nio.channels.FileChannel.open(file)) {
            long size = ch.size();
            if (size == 0) {
                return true;
            }
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
            ch.read(b, size - 1);
            return b.get(0) == '\n';
        }
    }

    static boolean quotesOpen(CharSequence s) {
        int q = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '"') {
                q++;
            }
        }
        return q % 2 == 1;
    }

    /** Where the columns the statistics need are, and how to read them. */
    static final class Columns {
        final int width;
        final int ts;
        final int el;
        final int lb;
        final int ok;
        final int by;
        final int sb;
        final int env;
        private String lastLabel = "";
        private String lastEnv = "";

        Columns(Path file, List<String> header) throws IOException {
            width = header.size();
            ts = required(file, header, "timeStamp");
            el = required(file, header, "elapsed");
            lb = required(file, header, "label");
            ok = header.indexOf("success");
            by = header.indexOf("bytes");
            sb = header.indexOf("sentBytes");
            env = header.indexOf(ENV_COLUMN);
        }

        private static int required(Path file, List<String> header, String name) throws IOException {
            int i = header.indexOf(name);
            if (i < 0) {
                throw new IOException(file + ": the JTL has no '" + name + "' column");
            }
            return i;
        }

        Sample sample(Path file, long lineNo, String line, int[] commas, String fallbackEnv) throws IOException {
            try {
                return new Sample(env < 0 ? fallbackEnv : (lastEnv = reuse(lastEnv, line, from(commas, env), commas[env])),
                        lastLabel = reuse(lastLabel, line, from(commas, lb), commas[lb]),
                        Long.parseLong(line, from(commas, ts), commas[ts], 10), Long.parseLong(line, from(commas, el), commas[el], 10),
                        ok < 0 || line.regionMatches(true, from(commas, ok), "true", 0, 4),
                        by < 0 ? 0 : Long.parseLong(line, from(commas, by), commas[by], 10),
                        sb < 0 ? 0 : Long.parseLong(line, from(commas, sb), commas[sb], 10));
            } catch (NumberFormatException e) {
                throw new IOException(file + " line " + lineNo + ": not a number (" + e.getMessage() + ")");
            }
        }

        Sample sample(Path file, long lineNo, CSVRecord rec, String fallbackEnv) throws IOException {
            try {
                return new Sample(env < 0 ? fallbackEnv : rec.get(env), rec.get(lb), Long.parseLong(rec.get(ts)),
                        Long.parseLong(rec.get(el)), ok < 0 || Boolean.parseBoolean(rec.get(ok)),
                        by < 0 ? 0 : Long.parseLong(rec.get(by)), sb < 0 ? 0 : Long.parseLong(rec.get(sb)));
            } catch (NumberFormatException e) {
                throw new IOException(file + " line " + lineNo + ": not a number (" + e.getMessage() + ")");
            }
        }

        private static int from(int[] commas, int column) {
            return column == 0 ? 0 : commas[column - 1] + 1;
        }

        /** The same text as last time gives the same String: no new object per sample. */
        private static String reuse(String last, String line, int from, int to) {
            return last.length() == to - from && line.regionMatches(from, last, 0, to - from) ? last : line.substring(from, to);
        }
    }
}
