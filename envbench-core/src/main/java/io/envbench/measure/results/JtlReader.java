package io.envbench.measure.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.engines.EngineMetrics;
import net.jcip.annotations.NotThreadSafe;
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
        try (LfLines r = new LfLines(
                new ReadAhead(ResultFiles.open(file), file.getFileName().toString()))) {
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
     * Records are read from the buffer's bytes: numbers parsed in place, a label or environment decoded only when it
     * differs from the last one, so a record without quotes makes no String at all. A record with quotes (a label or
     * message with a comma, a quote or a line end, which JMeter quotes as RFC 4180 says) is split here too when it is
     * one line of well-formed fields; anything else with quotes (a field across lines, a quote inside a field) is parsed
     * by commons-csv, whose reading is the rule. Lines end at LF only: a CR inside a quoted field is part of it (JMeter
     * keeps a label's CRLF inside the quotes), and a CR before the LF that ends a record (JMeter on Windows) is dropped.
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
        QuotedLine quoted = new QuotedLine(c.width);
        while (r.next()) {
            if (r.lastLineCut()) {
                break; // the last line has no end: JMeter was killed while writing it, so it is no sample
            }
            lineNo++;
            byte[] b = r.bytes();
            int start = r.start();
            int end = r.end();
            if (pending == null) {
                int fields = plainCommas(b, start, end, commas, c.width);
                if (fields != HAS_QUOTE) {
                    if (fields != c.width) {
                        throw damaged(
                                file,
                                lineNo,
                                "has " + (fields > c.width ? "more than " + c.width : Integer.toString(fields))
                                        + " fields, the header " + c.width);
                    }
                    n += accept(out, c.sample(file, lineNo, b, start, commas, fallbackEnv), file, lineNo);
                    continue;
                }
                if (quoted.split(b, start, end)) {
                    n += accept(out, c.sample(file, lineNo, quoted, fallbackEnv), file, lineNo);
                    continue;
                }
            }
            String line = r.line();
            if (pending == null) {
                pendingFrom = lineNo;
            }
            pending = pending == null
                    ? new StringBuilder(line)
                    : pending.append('\n').append(line);
            if (quotesOpen(pending)) {
                if (lineNo - pendingFrom >= MAX_RECORD_LINES) {
                    throw damaged(
                            file, pendingFrom, "a quote opens a field that runs on for " + MAX_RECORD_LINES + " lines");
                }
                continue; // a quoted field goes on on the next line
            }
            // quotes are balanced: a CR at the end is outside them, the record's own line end
            String record = withoutLineEnd(pending.toString());
            pending = null;
            List<CSVRecord> recs = CSVParser.parse(record, CSVFormat.DEFAULT).getRecords();
            if (recs.size() != 1 || recs.get(0).size() != c.width) {
                throw damaged(
                        file,
                        pendingFrom,
                        "has " + (recs.size() == 1 ? recs.get(0).size() : 0) + " fields, the header " + c.width);
            }
            n += accept(out, c.sample(file, pendingFrom, recs.get(0)::get, fallbackEnv), file, pendingFrom);
        }
        if (pending != null && !r.lastLineCut()) {
            // a record cut mid-quote is only harmless at the very end of a file JMeter did not finish
            throw damaged(file, pendingFrom, "a quote opens a field that never closes");
        }
        return n;
    }

    /** What {@link #plainCommas} says of a line with a quote: it is no plain record. */
    static final int HAS_QUOTE = -1;

    /**
     * Splits a line without quotes at its commas, a CR at its end dropped (a Windows line end).
     *
     * @param commas receives where each field ends: the comma after it, or the line's end after the last
     * @return how many fields (width + 1 when there are more than {@code width}), or {@link #HAS_QUOTE}
     */
    static int plainCommas(byte[] b, int start, int end, int[] commas, int width) {
        int fields = 0;
        for (int i = start; i < end; i++) {
            byte x = b[i];
            if (x == ',') {
                if (fields < width) {
                    commas[fields] = i;
                }
                fields++;
            } else if (x == '"') {
                return HAS_QUOTE;
            }
        }
        if (fields >= width) {
            return width + 1; // more fields than the header: damaged, counted no further
        }
        commas[fields] = end > start && b[end - 1] == '\r' ? end - 1 : end;
        return fields + 1;
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
        private final LastText lastLabel = new LastText();
        private final LastText lastEnv = new LastText();

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

        /** A record without quotes, from its bytes: {@code commas} as {@link #plainCommas} gave them. */
        Sample sample(Path file, long lineNo, byte[] b, int start, int[] commas, String fallbackEnv)
                throws IOException {
            return new Sample(
                    env < 0 ? fallbackEnv : lastEnv.of(b, from(start, commas, env), commas[env]),
                    lastLabel.of(b, from(start, commas, lb), commas[lb]),
                    number(file, lineNo, b, from(start, commas, ts), commas[ts], "timeStamp"),
                    number(file, lineNo, b, from(start, commas, el), commas[el], "elapsed"),
                    ok < 0 || startsWithTrue(b, from(start, commas, ok), commas[ok]),
                    by < 0 ? 0 : number(file, lineNo, b, from(start, commas, by), commas[by], "bytes"),
                    sb < 0 ? 0 : number(file, lineNo, b, from(start, commas, sb), commas[sb], "sentBytes"),
                    intended < 0
                            ? -1
                            : optionalNumber(
                                    file, lineNo, b, from(start, commas, intended), commas[intended], INTENDED_COLUMN));
        }

        /** A record with quotes that {@link QuotedLine#split} took. */
        Sample sample(Path file, long lineNo, QuotedLine q, String fallbackEnv) throws IOException {
            return sample(
                    file,
                    lineNo,
                    i -> i == lb ? q.field(i, lastLabel) : i == env ? q.field(i, lastEnv) : q.field(i),
                    fallbackEnv);
        }

        /**
         * A record with quotes, by its fields' values. Its success is exactly {@code true} (any case), as commons-csv's
         * reading always took it; a record without quotes keeps its own rule ({@link #startsWithTrue}).
         */
        Sample sample(Path file, long lineNo, IntFunction<String> field, String fallbackEnv) throws IOException {
            return new Sample(
                    env < 0 ? fallbackEnv : field.apply(env),
                    field.apply(lb),
                    number(file, lineNo, field.apply(ts), "timeStamp"),
                    number(file, lineNo, field.apply(el), "elapsed"),
                    ok < 0 || Boolean.parseBoolean(field.apply(ok)),
                    by < 0 ? 0 : number(file, lineNo, field.apply(by), "bytes"),
                    sb < 0 ? 0 : number(file, lineNo, field.apply(sb), "sentBytes"),
                    intended < 0
                                    || field.apply(intended).isEmpty()
                                    || field.apply(intended).equals("null")
                            ? -1
                            : number(file, lineNo, field.apply(intended), INTENDED_COLUMN));
        }

        /** A column a sample may leave unset ({@code null} or empty, as JMeter writes an unset variable): -1 then. */
        private static long optionalNumber(Path file, long lineNo, byte[] b, int from, int to, String name)
                throws IOException {
            if (from == to
                    || to - from == 4
                            && b[from] == 'n'
                            && b[from + 1] == 'u'
                            && b[from + 2] == 'l'
                            && b[from + 3] == 'l') {
                return -1;
            }
            return number(file, lineNo, b, from, to, name);
        }

        /**
         * A whole number of ASCII digits (a sign allowed) read in place; anything else (another script's digits, a
         * number too long to be sure of) is read as text by {@link Long#parseLong(String)}, which then decides.
         */
        private static long number(Path file, long lineNo, byte[] b, int from, int to, String name) throws IOException {
            int i = from;
            boolean negative = false;
            if (i < to && (b[i] == '-' || b[i] == '+')) {
                negative = b[i] == '-';
                i++;
            }
            if (i == to || to - i > 18) {
                return number(file, lineNo, text(b, from, to), name);
            }
            long v = 0;
            for (; i < to; i++) {
                int d = b[i] - '0';
                if (d < 0 || d > 9) {
                    return number(file, lineNo, text(b, from, to), name);
                }
                v = v * 10 + d;
            }
            return negative ? -v : v;
        }

        private static long number(Path file, long lineNo, String text, String name) throws IOException {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw notANumber(file, lineNo, text, name);
            }
        }

        /**
         * A record without quotes is a success when its field starts with {@code true} in any case (as JMeter's own
         * CSV reading takes it). Only ASCII letters can match, so other bytes decide nothing.
         */
        private static boolean startsWithTrue(byte[] b, int from, int to) {
            return to - from >= 4
                    && (b[from] | 0x20) == 't'
                    && (b[from + 1] | 0x20) == 'r'
                    && (b[from + 2] | 0x20) == 'u'
                    && (b[from + 3] | 0x20) == 'e';
        }

        private static IOException notANumber(Path file, long lineNo, String text, String name) {
            String shown = text.length() > 40 ? text.substring(0, 40) + "..." : text;
            return damaged(file, lineNo, name + " is '" + shown + "', not a whole number");
        }

        private static int from(int start, int[] commas, int column) {
            return column == 0 ? start : commas[column - 1] + 1;
        }
    }

    static String text(byte[] b, int from, int to) {
        return new String(b, from, to - from, StandardCharsets.UTF_8);
    }

    /**
     * The text of a column that takes few values (a label, an environment): bytes seen lately give the String made for
     * them then, so no object is made per sample, and the consumer's lookups by it find its hash already computed.
     */
    @NotThreadSafe
    static final class LastText {
        /** More than a plan's labels in one stretch of samples, few enough to look through on each one. */
        private static final int KEPT = 16;

        private final byte[][] bytes = new byte[KEPT][];
        private final String[] texts = new String[KEPT];
        private int next;

        String of(byte[] b, int from, int to) {
            for (int i = 0; i < KEPT && bytes[i] != null; i++) {
                byte[] k = bytes[i];
                if (Arrays.equals(b, from, to, k, 0, k.length)) {
                    return texts[i];
                }
            }
            int i = next;
            next = (next + 1) % KEPT;
            bytes[i] = Arrays.copyOfRange(b, from, to);
            texts[i] = JtlReader.text(b, from, to);
            return texts[i];
        }
    }

    /**
     * A line with quotes split as RFC 4180 says, when it is one whole record of well-formed fields: each field either
     * without quotes or wholly quoted (its quotes doubled inside), no CR. Anything else is left to commons-csv.
     */
    @NotThreadSafe
    static final class QuotedLine {
        private final int width;
        private final int[] from;
        private final int[] to;
        private final boolean[] doubled;
        private byte[] b;

        QuotedLine(int width) {
            this.width = width;
            from = new int[width];
            to = new int[width];
            doubled = new boolean[width];
        }

        /** @return whether the line is such a record with the header's number of fields; if so, {@link #field} reads them */
        boolean split(byte[] line, int start, int end) {
            b = line;
            int i = start;
            int f = 0;
            while (true) {
                if (f == width) {
                    return false;
                }
                doubled[f] = false;
                if (i < end && line[i] == '"') {
                    from[f] = ++i;
                    while (true) {
                        if (i == end || line[i] == '\r') {
                            return false; // the quote runs on to the next line, or holds a CR
                        }
                        if (line[i] == '"') {
                            if (i + 1 < end && line[i + 1] == '"') {
                                doubled[f] = true;
                                i += 2;
                                continue;
                            }
                            break;
                        }
                        i++;
                    }
                    to[f] = i++;
                    if (i < end && line[i] != ',') {
                        return false; // text after the closing quote
                    }
                } else {
                    from[f] = i;
                    while (i < end && line[i] != ',') {
                        if (line[i] == '"' || line[i] == '\r') {
                            return false; // a quote inside the field, or a CR
                        }
                        i++;
                    }
                    to[f] = i;
                }
                f++;
                if (i == end) {
                    return f == width;
                }
                i++; // the comma
            }
        }

        /** The value of field {@code i} of the last line {@link #split} took: its quotes removed, doubled ones undone. */
        String field(int i) {
            String s = text(b, from[i], to[i]);
            return doubled[i] ? s.replace("\"\"", "\"") : s;
        }

        /** As {@link #field(int)}, the same String as lately for the same value. */
        String field(int i, LastText recent) {
            return doubled[i] ? field(i) : recent.of(b, from[i], to[i]);
        }
    }
}
