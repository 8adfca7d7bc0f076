package io.envbench.base.output;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.function.UnaryOperator;

/**
 * A file channel on a disk that fills after {@code room} bytes, as a full disk does to write(2): what fits goes in
 * (half a row), then "No space left on device". Unit tests cannot mount a small file system; this is the same to the
 * writer. Everything else goes to the real channel.
 */
public final class FullDiskChannel extends FileChannel {
    private final FileChannel real;
    /** Bytes left on the disk, shared by every channel of one disk (a file rewritten with a wider header). */
    private final long[] room;

    private FullDiskChannel(FileChannel real, long[] room) {
        this.real = real;
        this.room = room;
    }

    /** Wraps each channel opened with {@code room} bytes left between them all. */
    public static UnaryOperator<FileChannel> withRoomFor(long room) {
        long[] left = {room};
        return real -> new FullDiskChannel(real, left);
    }

    private long left() {
        return room[0];
    }

    private void use(long n) {
        room[0] -= n;
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        long fits = Math.min(left(), src.remaining());
        int written = 0;
        if (fits > 0) {
            ByteBuffer part = src.duplicate();
            part.limit(part.position() + (int) fits);
            written = real.write(part, position);
            src.position(src.position() + written);
            use(written);
        }
        if (src.hasRemaining() && left() <= 0) {
            if (written > 0) {
                return written; // a short write first, as write(2) does; the next one fails
            }
            throw new IOException("No space left on device");
        }
        return written;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        int n = write(src, real.position());
        real.position(real.position() + n);
        return n;
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        long n = 0;
        for (int i = offset; i < offset + length; i++) {
            n += write(srcs[i]);
        }
        return n;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return real.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return real.read(dsts, offset, length);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return real.read(dst, position);
    }

    @Override
    public long position() throws IOException {
        return real.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        real.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return real.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        long before = real.size();
        real.truncate(size);
        use(-(before - real.size())); // what is cut off is room again
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        real.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return real.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        throw new IOException("not used by the writers under test");
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        return real.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return real.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return real.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        real.close();
    }
}
