package io.envbench.output;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

import org.apache.commons.io.input.BoundedInputStream;

/**
 * A CSV (or any line-based) file appended a whole row at a time. When a row cannot be written (the disk is full, the
 * file system went read-only), whatever part of it reached the file is cut off again, so the file stays valid up to
 * its last whole row, and the file <em>stops</em>: later rows are dropped, and {@link #stoppedBecause()} says why, for
 * the owner to warn once and for the report to say the data ends early. Thread-safe.
 */
public final class WholeRowFile implements AutoCloseable {
    private final Path file;
    private final FileChannel channel;
    private long size;
    private long rows;
    private String stoppedBecause;

    /**
     * Opens for appending (creating it when missing).
     *
     * @param truncate start empty rather than after what is there
     * @throws IOException naming the file, when it cannot be opened for writing at all
     */
    public WholeRowFile(Path file, boolean truncate) throws IOException {
        this.file = file;
        try {
            this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    truncate ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.APPEND);
            this.size = channel.size();
        } catch (IOException e) {
            throw OutputFolder.cannotWrite(file, e);
        }
    }

    public Path file() {
        return file;
    }

    /**
     * Appends rows, each ending with {@code \n}, all or nothing.
     *
     * @return false when they were not written: the file stopped now or before (see {@link #stoppedBecause()})
     */
    public synchronized boolean append(String rowsText) {
        if (stoppedBecause != null) {
            return false;
        }
        ByteBuffer b = ByteBuffer.wrap(rowsText.getBytes(StandardCharsets.UTF_8));
        try {
            while (b.hasRemaining()) {
                channel.write(b, size + b.position());
            }
            size += b.limit();
            rows += rowsText.chars().filter(c -> c == '\n').count();
            return true;
        } catch (IOException e) {
            stoppedBecause = OutputFolder.why(e);
            try {
                channel.truncate(size); // what reached the disk of this row goes: the file ends with a whole row
            } catch (IOException cut) {
                stoppedBecause += "; the last row could not be cut off either (" + cut.getMessage() + ")";
            }
            return false;
        }
    }

    /** Why the file stopped taking rows (e.g. {@code no space left on device}); empty while it takes them. */
    public synchronized Optional<String> stoppedBecause() {
        return Optional.ofNullable(stoppedBecause);
    }

    /** Rows written through this object. */
    public synchronized long rows() {
        return rows;
    }

    @Override
    public synchronized void close() throws IOException {
        channel.close();
    }

    /**
     * The file's whole rows: everything up to its last {@code \n}. A last line without its end was being written when
     * the writer died or the disk filled; it is no data.
     */
    public static Reader wholeRows(Path file) throws IOException {
        long length = lengthOfWholeRows(file);
        InputStream in = Channels.newInputStream(FileChannel.open(file, StandardOpenOption.READ));
        return new InputStreamReader(new BoundedInputStream(in, length), StandardCharsets.UTF_8);
    }

    /** Bytes up to and including the last {@code \n}; the whole file when it ends with one. */
    public static long lengthOfWholeRows(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long end = ch.size();
            ByteBuffer b = ByteBuffer.allocate(8192);
            while (end > 0) {
                long from = Math.max(0, end - b.capacity());
                b.clear().limit((int) (end - from));
                while (b.hasRemaining() && ch.read(b, from + b.position()) >= 0) {
                    // fill
                }
                for (int i = b.position() - 1; i >= 0; i--) {
                    if (b.get(i) == '\n') {
                        return from + i + 1;
                    }
                }
                end = from;
            }
            return 0;
        }
    }
}
