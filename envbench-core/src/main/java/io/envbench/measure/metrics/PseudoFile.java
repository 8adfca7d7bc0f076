package io.envbench.measure.metrics;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A procfs or cgroupfs file kept open and read again from offset 0 on every tick: the kernel regenerates the
 * content on each read, and skipping open/close makes a reading about three times cheaper. The content is
 * parsed where it lies ({@link #fill()}, then {@link #bytes()} with {@link Ascii}): no String per reading.
 * Thread-safe for {@link #read()} and {@link #readLong()}; {@link #fill()} and {@link #bytes()} belong to one
 * reading thread.
 */
final class PseudoFile implements Closeable {
    private final Path path;
    private final FileChannel channel;
    private ByteBuffer buffer = ByteBuffer.allocate(4096);

    PseudoFile(Path path) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.READ);
    }

    /**
     * Reads the whole file, as it is now, into {@link #bytes()}; returns its length. One read call when the file fits
     * the buffer: procfs, sysfs and cgroupfs files are generated whole on each read from offset 0 and handed out as
     * far as the buffer goes, so a read that leaves room in the buffer got all there is. (Asking again for the end of
     * file costs a second call, in which the kernel generates the file once more to skip to the offset: it was half
     * the cost of a reading.) A read that fills the buffer goes on into a buffer twice as big.
     */
    synchronized int fill() throws IOException {
        buffer.clear();
        long pos = 0;
        int n;
        while ((n = channel.read(buffer, pos)) > 0) {
            pos += n;
            if (buffer.hasRemaining()) {
                break; // room left: that was the whole file
            }
            ByteBuffer bigger = ByteBuffer.allocate(buffer.capacity() * 2);
            buffer.flip();
            bigger.put(buffer);
            buffer = bigger;
        }
        return buffer.position();
    }

    /**
     * What the last {@link #fill()} read (its first {@code fill()} bytes). Ask after {@code fill()}, not in the same
     * argument list before it: a fill that grows the buffer makes this a new array.
     */
    byte[] bytes() {
        return buffer.array();
    }

    /** The whole file, as it is now. */
    synchronized String read() throws IOException {
        int n = fill();
        return new String(buffer.array(), 0, n, StandardCharsets.ISO_8859_1);
    }

    /** The number the file holds; -1 for a word such as "max". */
    synchronized long readLong() throws IOException {
        int n = fill();
        return Ascii.firstLong(buffer.array(), 0, n);
    }

    @Override
    public String toString() {
        return path.toString();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
