package io.envbench.measure.results;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import net.jcip.annotations.NotThreadSafe;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * A CSV JTL that JMeter is still writing, read as it grows: each {@link #poll} hands over the samples of the
 * lines completed since the last one (a line without its end yet waits for the next poll). For live figures
 * while a run goes on; {@link JtlReader} reads a finished file. Not thread-safe: poll from one thread.
 */
@NotThreadSafe
public final class JtlTail {
    private static final int MAX_CHUNK_BYTES = 4 << 20;

    private final Path file;
    private final String fallbackEnvironment;
    private long position;
    private JtlReader.Columns columns;
    private int[] commas;
    private long lineNo;
    private byte[] partial = new byte[0];
    private StringBuilder pendingRecord;

    public JtlTail(Path file) {
        this.file = file;
        this.fallbackEnvironment = ResultFiles.stem(file);
    }

    /**
     * Reads what was appended since the last poll (at most a few MB at a time, so a poll stays short).
     *
     * @return how many samples were handed over; 0 while the file does not exist yet
     */
    public long poll(Consumer<Sample> out) throws IOException {
        if (!Files.isRegularFile(file)) {
            return 0;
        }
        byte[] chunk;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < position) {
                throw new IOException(file + ": the file got shorter while being read (overwritten?)");
            }
            int n = (int) Math.min(size - position, MAX_CHUNK_BYTES);
            ByteBuffer b = ByteBuffer.allocate(partial.length + n);
            b.put(partial);
            while (b.hasRemaining()) {
                if (ch.read(b, position + b.position() - partial.length) < 0) {
                    break;
                }
            }
            position += n;
            chunk = b.array();
        }
        int end = lastNewline(chunk);
        partial = Arrays.copyOfRange(chunk, end + 1, chunk.length);
        if (end < 0) {
            return 0;
        }
        long samples = 0;
        String text = new String(chunk, 0, end, StandardCharsets.UTF_8);
        for (String line : text.split("\n", -1)) {
            // a CR stays until the record is whole: inside quotes it is part of a label, at the end it is a line end
            samples += line(line, out);
        }
        return samples;
    }

    private int line(String line, Consumer<Sample> out) throws IOException {
        lineNo++;
        if (columns == null) {
            line = JtlReader.withoutLineEnd(line);
            if (!line.contains("timeStamp") || !line.contains("elapsed")) {
                throw new IOException(file + ": not a CSV JTL with a header line (timeStamp,elapsed,label,...)");
            }
            columns = new JtlReader.Columns(
                    file,
                    CSVParser.parse(line, CSVFormat.DEFAULT).getRecords().get(0).toList());
            commas = new int[columns.width + 1];
            return 0;
        }
        if (pendingRecord != null || line.indexOf('"') >= 0) {
            pendingRecord = pendingRecord == null
                    ? new StringBuilder(line)
                    : pendingRecord.append('\n').append(line);
            if (JtlReader.quotesOpen(pendingRecord)) {
                return 0;
            }
            String record = JtlReader.withoutLineEnd(pendingRecord.toString());
            pendingRecord = null;
            List<CSVRecord> recs = CSVParser.parse(record, CSVFormat.DEFAULT).getRecords();
            if (recs.size() == 1 && recs.get(0).size() >= columns.width) {
                return JtlReader.deliver(columns.sample(file, lineNo, recs.get(0)::get, fallbackEnvironment), out);
            }
            return 0;
        }
        byte[] b = JtlReader.withoutLineEnd(line).getBytes(StandardCharsets.UTF_8);
        int fields = 0;
        for (int i = 0; i < b.length && fields < columns.width; i++) {
            if (b[i] == ',') {
                commas[fields++] = i;
            }
        }
        if (fields + 1 < columns.width) {
            return 0;
        }
        commas[fields] = b.length;
        return JtlReader.deliver(columns.sample(file, lineNo, b, 0, commas, fallbackEnvironment), out);
    }

    private static int lastNewline(byte[] b) {
        for (int i = b.length - 1; i >= 0; i--) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
