package io.envbench.measure.results;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.engines.EngineMetrics;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Streams the samples of a CSV JTL (JMeter's default result format, with a header line), plain or gzip-compressed
 * alike ({@link ResultFiles#open}). The
 * environment of each sample is its {@code envbench.env} column; a file without that column is one
 * environment named after the file. Samples that carry a remote engine's metrics ({@link EngineMetrics}) are no
 * load and are left out.
 *
 * <p>A damaged file is refused with its name and line, never half read: a record with fewer or more fields than the
 * header, a number column that holds no whole number, or a quote that never closes. Only the last record may be cut
 * (JMeter killed while writing it): it is no sample, and is left out.
 */
public final class JtlReader {
    public static final String ENV_COLUMN = "envbench.env";
    /** Each sample's intended start under an open-model load (the EnvBench Arrivals Timer's variable), epoch ms. */
    public static final String INTENDED_COLUMN = "envbench.intended";

    private JtlReader() {}

    /** @return how many samples were read */
    public static long read(Path file, Consumer<Sample> out) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException(file + ": no such file");
        }
        try (LfLines r = new LfLines(ResultFiles.open(file))) {
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
            return parse(file, withoutLineEnd(first), r, out);
        }
    }

    /**
     * Lines without quotes (nearly all of a JTL) are split here without making a String per field; a
     * record with quotes (a label or message with a comma, a quote or a line end, which JMeter quotes as RFC 4180
     * says) is parsed by commons-csv. Lines end at LF only: a CR inside a quoted field is part of it (JMeter keeps a
     * label's CRLF inside the quotes), and a CR before the LF that ends a record (JMeter on Windows) is dropped.
     */
    private static long parse(Path file, String header, LfLines r, Consumer<Sample> out) throws IOException {
        Columns c = new Columns(
                file,
                CSVParser.parse(header, CSVFormat.DEFAULT).getRecords().get(0).toList());
        String fallbackEnv = ResultFiles.stem(file);
        long n = 0;
        long lineNo = 1;
        long pendingFrom = 0;
        StringBuilder pending = null;
        int[] commas = new int[c.width + 1];
        String line;
        String next = r.readLine();
        while ((line = next) != null) {
            next = r.readLine();
            if (next == null && r.lastLineCut()) {
                break; // the last line has no end: JMeter was killed while writing it, so it is no sample
            }
            lineNo++;
            if (pending != null || line.indexOf('"') >= 0) {
                if (pending == null) {
                    pendingFrom = lineNo;
                }
                pending = pending == null
                        ? new StringBuilder(line)
                        : pending.append('\n').append(line);
                if (quotesOpen(pending)) {
                    if (lineNo - pendingFrom >= MAX_RECORD_LINES) {
                        throw damaged(
                                file,
                                pendingFrom,
                                "a quote opens a field that runs on for " + MAX_RECORD_LINES + " lines");
                    }
                    continue; // a quoted field goes on on the next line
                }
                // quotes are balanced: a CR at the end is outside them, the record's own line end
                String record = withoutLineEnd(pending.toString());
                pending = null;
                List<CSVRecord> recs =
                        CSVParser.parse(record, CSVFormat.DEFAULT).getRecords();
                if (recs.size() != 1 || recs.get(0).size() != c.width) {
                    throw damaged(
                            file,
                            pendingFrom,
                            "has " + (recs.size() == 1 ? recs.get(0).size() : 0) + " fields, the header " + c.width);
                }
                n += accept(out, c.sample(file, pendingFrom, recs.get(0), fallbackEnv), file, pendingFrom);
                continue;
            }
            line = withoutLineEnd(line);
            int fields = 0;
            for (int i = line.indexOf(','); i >= 0; i = line.indexOf(',', i + 1)) {
                if (fields == c.width) {
                    fields++; // more fields than the header: damaged, counted no further
                    break;
                }
                commas[fields++] = i;
            }
            if (fields + 1 != c.width) {
                throw damaged(
                        file,
                        lineNo,
                        "has " + (fields + 1 > c.width ? "more than " + c.width : Integer.toString(fields + 1))
                                + " fields, the header " + c.width);
            }
            commas[fields] = line.length();
            n += accept(out, c.sample(file, lineNo, line, commas, fallbackEnv), file, lineNo);
        }
        if (pending != null && !r.lastLineCut()) {
            // a record cut mid-quote is only harmless at the very end of a file JMeter did not finish
            throw damaged(file, pendingFrom, "a quote opens a field that never closes");
        }
        return n;
    }

    /**
     * Hands a sample over unless it carries a remote engine's metrics ({@link EngineMetrics}): those are no load, and no
     * reader of results counts them. A sample the consumer refuses (a label that is a row EnvBench adds itself) is named
     * by its file and line. @return 1 when handed over, else 0
     */
    static int accept(Consumer<Sample> out, Sample s, Path file, long lineNo) throws IOException {
        if (EngineMetrics.isCarrier(s.label())) {
            return 0;
        }
        try {
            out.accept(s);
            return 1;
        } catch (InvalidSettingException e) {
            throw new IOException(file + " line " + lineNo + ": " + e.getMessage(), e);
        }
    }

    /** For a reader of a file still being written ({@link JtlTail}): hands a sample over unless it carries engine metrics. @return 1 or 0 */
    static int deliver(Sample s, Consumer<Sample> out) {
        if (EngineMetrics.isCarrier(s.label())) {
            return 0;
        }
        out.accept(s);
        return 1;
    }

    /** A quoted field (a response message) longer than this many lines is a stray quote, not a message. */
    static final int MAX_RECORD_LINES = 1000;

    /** The message for a damaged record: the file, the line, what is wrong, and what to do. */
    static IOException damaged(Path file, long lineNo, String problem) {
        return new IOException(
                file + " line " + lineNo + ": " + problem + "; the file is damaged (cut, or overwritten) here. "
                        + "Run that environment again, or cut the file before this line to keep the samples above it");
    }

    /** A record without the CR of a CRLF line end (a file written on Windows); the same String when there is none. */
    static String withoutLineEnd(String record) {
        int n = record.length();
        return n > 0 && record.charAt(n - 1) == '\r' ? record.substring(0, n - 1) : record;
    }

    /**
     * Lines ended by LF alone, a CR kept: {@link java.io.BufferedReader#readLine()} also ends a line at a CR, which
     * would cut a quoted label's CR out of it. Bytes are split at LF (never part of a longer UTF-8 character) and each
     * line decoded on its own: as fast as a BufferedReader, faster for ASCII lines. Bytes that are not UTF-8 (a damaged
     * file) become U+FFFD, so the damage is reported with its line, not as a decoder error. Whether the last line had
     * its LF is known once it is read ({@link #lastLineCut()}), so a compressed file needs no second pass to tell.
     */
    static final class LfLines implements AutoCloseable {
        private final InputStream in;
        private byte[] buf = new byte[1 << 16];
        private int pos;
        private int end;
        private boolean cut;

        LfLines(InputStream in) {
            this.in = in;
        }

        /** @return the next line without its LF, or null at the end of the file */
        String readLine() throws IOException {
            int from = pos;
            while (true) {
                byte[] b = buf;
                int to = end;
                for (int i = pos; i < to; i++) {
                    if (b[i] == '\n') {
                        pos = i + 1;
                        return new String(b, from, i - from, StandardCharsets.UTF_8);
                    }
                }
                // no LF in what is buffered: move the line's start to the front (or grow for a long line), read on
                int kept = to - from;
                if (from > 0) {
                    System.arraycopy(b, from, b, 0, kept);
                } else if (kept == b.length) {
                    buf = b = Arrays.copyOf(b, 2 * b.length);
                }
                from = 0;
                pos = kept;
                end = kept;
                int n = in.read(b, kept, b.length - kept);
                if (n <= 0) {
                    pos = end;
                    cut |= kept > 0;
                    return kept == 0 ? null : new String(b, 0, kept, StandardCharsets.UTF_8);
                }
                end += n;
            }
        }

        /** Whether {@link #readLine()} has returned the file's last line, and it had no LF: it was cut. */
        boolean lastLineCut() {
            return cut;
        }

        @Override
        public void close() throws IOException {
            in.close();
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
        final int intended;
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
            intended = header.indexOf(INTENDED_COLUMN);
        }

        private static int required(Path file, List<String> header, String name) throws IOException {
            int i = header.indexOf(name);
            if (i < 0) {
                throw new IOException(file + ": the JTL has no '" + name + "' column");
            }
            return i;
        }

        Sample sample(Path file, long lineNo, String line, int[] commas, String fallbackEnv) throws IOException {
            return new Sample(
                    env < 0 ? fallbackEnv : (lastEnv = reuse(lastEnv, line, from(commas, env), commas[env])),
                    lastLabel = reuse(lastLabel, line, from(commas, lb), commas[lb]),
                    number(file, lineNo, line, commas, ts, "timeStamp"),
                    number(file, lineNo, line, commas, el, "elapsed"),
                    ok < 0 || line.regionMatches(true, from(commas, ok), "true", 0, 4),
                    by < 0 ? 0 : number(file, lineNo, line, commas, by, "bytes"),
                    sb < 0 ? 0 : number(file, lineNo, line, commas, sb, "sentBytes"),
                    intended < 0 ? -1 : optionalNumber(file, lineNo, line, commas, intended, INTENDED_COLUMN));
        }

        /** A column a sample may leave unset ({@code null} or empty, as JMeter writes an unset variable): -1 then. */
        private static long optionalNumber(Path file, long lineNo, String line, int[] commas, int col, String name)
                throws IOException {
            int from = from(commas, col);
            int to = commas[col];
            if (from == to || line.startsWith("null", from) && to - from == 4) {
                return -1;
            }
            return number(file, lineNo, line, commas, col, name);
        }

        Sample sample(Path file, long lineNo, CSVRecord rec, String fallbackEnv) throws IOException {
            return new Sample(
                    env < 0 ? fallbackEnv : rec.get(env),
                    rec.get(lb),
                    number(file, lineNo, rec.get(ts), "timeStamp"),
                    number(file, lineNo, rec.get(el), "elapsed"),
                    ok < 0 || Boolean.parseBoolean(rec.get(ok)),
                    by < 0 ? 0 : number(file, lineNo, rec.get(by), "bytes"),
                    sb < 0 ? 0 : number(file, lineNo, rec.get(sb), "sentBytes"),
                    intended < 0
                                    || rec.get(intended).isEmpty()
                                    || rec.get(intended).equals("null")
                            ? -1
                            : number(file, lineNo, rec.get(intended), INTENDED_COLUMN));
        }

        private static long number(Path file, long lineNo, String line, int[] commas, int column, String name)
                throws IOException {
            try {
                return Long.parseLong(line, from(commas, column), commas[column], 10);
            } catch (NumberFormatException e) {
                throw notANumber(file, lineNo, line.substring(from(commas, column), commas[column]), name);
            }
        }

        private static long number(Path file, long lineNo, String text, String name) throws IOException {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw notANumber(file, lineNo, text, name);
            }
        }

        private static IOException notANumber(Path file, long lineNo, String text, String name) {
            String shown = text.length() > 40 ? text.substring(0, 40) + "..." : text;
            return damaged(file, lineNo, name + " is '" + shown + "', not a whole number");
        }

        private static int from(int[] commas, int column) {
            return column == 0 ? 0 : commas[column - 1] + 1;
        }

        /** The same text as last time gives the same String: no new object per sample. */
        private static String reuse(String last, String line, int from, int to) {
            return last.length() == to - from && line.regionMatches(from, last, 0, to - from)
                    ? last
                    : line.substring(from, to);
        }
    }
}
