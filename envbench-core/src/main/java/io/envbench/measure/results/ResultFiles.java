package io.envbench.measure.results;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Reader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;

import io.envbench.base.output.WholeRowFile;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * The one way to find, open and compress a result file (a CSV JTL): plain while JMeter writes it, gzip-compressed
 * ({@code NAME.jtl.gz}) once the run that wrote it has ended. Every reader of result files opens them here, so a plain
 * file, a compressed one, and a folder holding both read alike. Gzip (the JDK's, no dependency) because a demo JTL
 * compresses 20 to 30 to 1 with it (7.4 MB per million samples, CompactResultsBenchmark), well under the 15 MB aimed
 * at, so zstd would add a dependency for little.
 */
public final class ResultFiles {
    /** What a compressed result file's name ends with, after its {@code .jtl} or {@code .csv}. */
    public static final String COMPRESSED_SUFFIX = ".gz";

    /** A compressed file being written: never read as data, removed by the next compression or rerun. */
    private static final String TEMP_SUFFIX = ".tmp";

    private static final Pattern RESULT_NAME = Pattern.compile("\\.(jtl|csv)(\\.gz)?$");
    private static final int BUFFER_BYTES = 1 << 16;

    private ResultFiles() {}

    /**
     * The file that holds what JMeter wrote to {@code written}: its compressed form once it is made, else itself (a
     * run still going, a compression that could not be made, an older runner's run directory).
     */
    public static Path kept(Path written) {
        if (written.getFileName().toString().endsWith(COMPRESSED_SUFFIX)) {
            return written;
        }
        Path gz = compressedOf(written);
        return Files.exists(gz) ? gz : written;
    }

    /** {@code NAME.jtl} -> {@code NAME.jtl.gz}. */
    public static Path compressedOf(Path written) {
        return written.resolveSibling(written.getFileName() + COMPRESSED_SUFFIX);
    }

    /** Whether the name is a result file's: {@code .jtl} or {@code .csv}, plain or with {@code .gz}. */
    public static boolean isResultFile(Path file) {
        return RESULT_NAME.matcher(file.getFileName().toString()).find();
    }

    /** A file's name without {@code .jtl}, {@code .csv}, {@code .jtl.gz} or {@code .csv.gz}: the run it holds. */
    public static String stem(Path file) {
        return RESULT_NAME.matcher(file.getFileName().toString()).replaceFirst("");
    }

    /** {@link #stem(Path)} of a path written as text ({@code run1/static-web.jtl.gz} -> {@code run1/static-web}). */
    public static String stem(String path) {
        return RESULT_NAME.matcher(path).replaceFirst("");
    }

    /**
     * The file's bytes as JMeter wrote them, decompressed when it is gzip (told by its first two bytes, whatever its
     * name). A compressed file that ends early, or whose data is not gzip's, is refused while reading, with its name:
     * never a short read taken for the end of the samples.
     */
    public static InputStream open(Path file) throws IOException {
        InputStream raw = new BufferedInputStream(Files.newInputStream(file), BUFFER_BYTES);
        try {
            raw.mark(2);
            int b0 = raw.read();
            int b1 = raw.read();
            raw.reset();
            if (b0 != (GZIPInputStream.GZIP_MAGIC & 0xff) || b1 != (GZIPInputStream.GZIP_MAGIC >> 8)) {
                return raw;
            }
            return new CheckedGzip(file, raw);
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    /** {@link #open(Path)} as UTF-8 text. */
    public static Reader reader(Path file) throws IOException {
        return new InputStreamReader(open(file), StandardCharsets.UTF_8);
    }

    /**
     * Whether the file's last line has no end: JMeter (or the disk) stopped mid-row, and that row is no sample. A
     * compressed file is read through for it.
     */
    public static boolean endsWithCutRow(Path file) throws IOException {
        try (InputStream in = open(file)) {
            if (!(in instanceof CheckedGzip)) {
                return WholeRowFile.lengthOfWholeRows(file) < Files.size(file);
            }
            byte[] b = new byte[BUFFER_BYTES];
            int last = '\n';
            for (int n; (n = in.read(b)) >= 0; ) {
                if (n > 0) {
                    last = b[n - 1];
                }
            }
            return last != '\n';
        }
    }

    /** Deletes a result file in every form it may have been left in (plain, compressed, a compression cut short). */
    public static void deleteAll(Path written) throws IOException {
        Files.deleteIfExists(written);
        Files.deleteIfExists(compressedOf(written));
        Files.deleteIfExists(tempOf(compressedOf(written)));
    }

    /**
     * Compresses {@code written} into {@code NAME.jtl.gz}, keeping {@code columns}, and deletes it. The compressed file is
     * written under a temporary name, synced, renamed over in one step, and only then is the plain one deleted: a crash
     * at any moment leaves the plain file, or a whole compressed one (maybe beside the plain one, which readers then
     * ignore), never a cut {@code .gz} read as data. A last row without its end (JMeter stopped mid-row) stays so, and
     * is still left out and reported as cut.
     *
     * @return the compressed file
     * @throws IOException naming the file (a full disk, a damaged row when dropping columns); the plain file is then
     *     kept as it was and nothing else is left behind
     */
    public static Path compress(Path written, ResultColumns columns) throws IOException {
        Path gz = compressedOf(written);
        Path temp = tempOf(gz);
        try {
            try (OutputStream out = new GZIPOutputStream(
                    new BufferedOutputStream(Files.newOutputStream(temp), BUFFER_BYTES), BUFFER_BYTES)) {
                if (columns == ResultColumns.FULL) {
                    Files.copy(written, out);
                } else {
                    keepColumns(written, columns, out);
                }
            }
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ch.force(true); // on disk before the rename makes it the data
            }
            Files.move(temp, gz, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw new IOException(written + ": not compressed, kept as it is: " + e.getMessage(), e);
        }
        Files.delete(written);
        return gz;
    }

    private static Path tempOf(Path gz) {
        return gz.resolveSibling(gz.getFileName() + TEMP_SUFFIX);
    }

    /**
     * The rows of {@code file} with only the columns {@code columns} keeps, in their order. Rows are split as {@link
     * JtlReader} splits them (quoted fields may hold commas and line ends); a row with another number of fields than
     * the header is refused as the reader would refuse it, so dropping columns never hides damage.
     */
    private static void keepColumns(Path file, ResultColumns columns, OutputStream out) throws IOException {
        try (LfLines r = new LfLines(open(file))) {
            String first = r.readLine();
            if (first == null) {
                return;
            }
            if (r.lastLineCut()) { // not even a whole header: nothing to choose columns by
                out.write(first.getBytes(StandardCharsets.UTF_8));
                return;
            }
            List<String> header = CSVParser.parse(JtlReader.withoutLineEnd(first), CSVFormat.DEFAULT)
                    .getRecords()
                    .get(0)
                    .toList();
            int width = header.size();
            List<Integer> keptList = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (int i = 0; i < width; i++) {
                if (columns.keeps(header.get(i))) {
                    keptList.add(i);
                    names.add(header.get(i));
                }
            }
            int[] kept = keptList.stream().mapToInt(Integer::intValue).toArray();
            write(out, CSVFormat.DEFAULT.format(names.toArray()));
            int[] commas = new int[width + 1];
            StringBuilder pending = null;
            long lineNo = 1;
            long pendingFrom = 0;
            StringBuilder row = new StringBuilder(256);
            for (String line; (line = r.readLine()) != null; ) {
                lineNo++;
                if (r.lastLineCut()) {
                    // JMeter stopped mid-row: kept as it is, so readers still leave it out and say so
                    String cut = pending == null
                            ? line
                            : pending.append('\n').append(line).toString();
                    out.write(cut.getBytes(StandardCharsets.UTF_8));
                    return;
                }
                if (pending != null || line.indexOf('"') >= 0) {
                    if (pending == null) {
                        pendingFrom = lineNo;
                        pending = new StringBuilder(line);
                    } else {
                        pending.append('\n').append(line);
                    }
                    if (JtlReader.quotesOpen(pending)) {
                        continue;
                    }
                    List<CSVRecord> recs = CSVParser.parse(
                                    JtlReader.withoutLineEnd(pending.toString()), CSVFormat.DEFAULT)
                            .getRecords();
                    pending = null;
                    if (recs.size() != 1 || recs.get(0).size() != width) {
                        throw JtlReader.damaged(file, pendingFrom, "does not have the header's " + width + " fields");
                    }
                    Object[] values = new Object[kept.length];
                    for (int i = 0; i < kept.length; i++) {
                        values[i] = recs.get(0).get(kept[i]);
                    }
                    write(out, CSVFormat.DEFAULT.format(values));
                    continue;
                }
                line = JtlReader.withoutLineEnd(line);
                int fields = 0;
                for (int i = line.indexOf(','); i >= 0 && fields < width; i = line.indexOf(',', i + 1)) {
                    commas[fields++] = i;
                }
                if (fields + 1 != width) {
                    throw JtlReader.damaged(file, lineNo, "does not have the header's " + width + " fields");
                }
                commas[fields] = line.length();
                row.setLength(0);
                for (int i = 0; i < kept.length; i++) {
                    int c = kept[i];
                    if (i > 0) {
                        row.append(',');
                    }
                    row.append(line, c == 0 ? 0 : commas[c - 1] + 1, commas[c]);
                }
                write(out, row);
            }
            if (pending != null) {
                throw JtlReader.damaged(file, pendingFrom, "a quote opens a field that never closes");
            }
        }
    }

    private static void write(OutputStream out, CharSequence row) throws IOException {
        out.write(row.toString().getBytes(StandardCharsets.UTF_8));
        out.write('\n');
    }

    /** Gzip data that names its file when it ends early or is not gzip's: a copy cut short, a damaged disk. */
    private static final class CheckedGzip extends FilterInputStream {
        private final Path file;

        CheckedGzip(Path file, InputStream raw) throws IOException {
            super(null);
            this.file = file;
            try {
                in = new GZIPInputStream(raw, BUFFER_BYTES);
            } catch (EOFException | ZipException e) {
                throw damaged(file, e);
            }
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (EOFException | ZipException e) {
                throw damaged(file, e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (EOFException | ZipException e) {
                throw damaged(file, e);
            }
        }

        private static IOException damaged(Path file, IOException e) {
            return new IOException(
                    file + ": the compressed file is "
                            + (e instanceof EOFException ? "cut short (it ends before its data does)" : "damaged")
                            + " (" + e.getMessage() + "); it is not read. Copy it again from where it came from, or run"
                            + " that environment again",
                    e);
        }
    }
}
