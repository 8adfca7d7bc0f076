package io.envbench.base.output;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.function.UnaryOperator;

import net.jcip.annotations.GuardedBy;
import net.jcip.annotations.ThreadSafe;
import org.apache.commons.io.input.BoundedInputStream;

/**
 * A CSV (or any line-based) file appended a whole row at a time. When a row cannot be written (the disk is full, the
 * file system went read-only), whatever part of it reached the file is cut off again, so the file stays valid up to
 * its last whole row, and the file <em>stops</em>: later rows are dropped, and {@link #stoppedBecause()} says why, for
 * the owner to warn once and for the report to say the data ends early. Thread-safe.
 */
@ThreadSafe
public final class WholeRowFile implements AutoCloseable {
    private final Path file;
    private final FileChannel channel;
    private final long cutRowDropped;

    @GuardedBy("this")
    private long size;

    @GuardedBy("this")
    private long rows;

    @GuardedBy("this")
    private String stoppedBecause;
    /** Unmappable characters (a lone surrogate) become '?', as String.getBytes makes them. */
    @GuardedBy("this")
    private final CharsetEncoder encoder = StandardCharsets.UTF_8
            .newEncoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);

    @GuardedBy("this")
    private ByteBuffer buffer = ByteBuffer.allocate(4096);

    /**
     * Opens for appending (creating it when missing). A last row without its end (the writer died, or the disk filled,
     * mid-row) is cut off first, so that the next row starts a line of its own.
     *
     * @param truncate start empty rather than after what is there
     * @throws IOException naming the file, when it cannot be opened for writing at all
     */
    public WholeRowFile(Path file, boolean truncate) throws IOException {
        this(file, truncate, UnaryOperator.identity());
    }

    /**
     * As {@link #WholeRowFile(Path, boolean)}, writing through {@code wrap}'s wrapping of the file's channel: a test's
     * full disk, which a unit test cannot mount.
     */
    public WholeRowFile(Path file, boolean truncate, UnaryOperator<FileChannel> wrap) throws IOException {
        this.file = file;
        try {
            this.channel = wrap.apply(FileChannel.open(
                    file,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE,
                    truncate ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.APPEND));
            long size = channel.size();
            long whole = truncate || size == 0 ? size : lengthOfWholeRows(file);
            if (whole < size) { // a row cut by a crash or a full disk: the next row would be appended onto it
                channel.truncate(whole);
            }
            this.size = whole;
            this.cutRowDropped = size - whole;
        } catch (IOException e) {
            throw OutputFolder.cannotWrite(file, e);
        }
    }

    /** Bytes of a cut last row (no {@code \n} at its end) dropped when the file was opened; 0 when it ended whole. */
    public long cutRowDropped() {
        return cutRowDropped;
    }

    public Path file() {
        return file;
    }

    /**
     * Appends rows, each ending with {@code \n}, all or nothing. The text is encoded into a buffer this object keeps
     * (no String or byte array per call: the metrics collector writes a row per tick).
     *
     * @return false when they were not written: the file stopped now or before (see {@link #stoppedBecause()})
     */
    public synchronized boolean append(CharSequence rowsText) {
        if (stoppedBecause != null) {
            return false;
        }
        int newLines = 0;
        for (int i = 0; i < rowsText.length(); i++) {
            if (rowsText.charAt(i) == '\n') {
                newLines++;
            }
        }
        ByteBuffer b = encode(rowsText);
        try {
            while (b.hasRemaining()) {
                channel.write(b, size + b.position());
            }
            size += b.limit();
            rows += newLines;
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

    /** The text as UTF-8 in {@link #buffer} (grown when it does not fit), flipped for writing. */
    private ByteBuffer encode(CharSequence text) {
        int n = text.length();
        if (buffer.capacity() < n) {
            buffer = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, n));
        }
        byte[] out = buffer.array();
        int i = 0;
        while (i < n) { // ASCII, as metrics and JTL rows nearly always are: one byte per char, no encoder
            char c = text.charAt(i);
            if (c >= 0x80) {
                break;
            }
            out[i++] = (byte) c;
        }
        if (i == n) {
            buffer.clear();
            return buffer.limit(n);
        }
        CharBuffer chars = CharBuffer.wrap(text);
        while (true) {
            buffer.clear();
            encoder.reset();
            CoderResult r = encoder.encode(chars, buffer, true);
            if (!r.isOverflow()) {
                r = encoder.flush(buffer);
            }
            if (r.isOverflow()) {
                buffer = ByteBuffer.allocate(
                        Math.max(buffer.capacity() * 2, (int) (text.length() * encoder.maxBytesPerChar())));
                chars.rewind();
                continue;
            }
            return buffer.flip();
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
