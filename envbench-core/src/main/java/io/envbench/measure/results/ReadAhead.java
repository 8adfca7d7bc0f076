package io.envbench.measure.results;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import net.jcip.annotations.NotThreadSafe;

/**
 * A stream read by a thread of its own a few chunks ahead of its reader: the disk's wait and gzip's inflating of a
 * result file happen while the reader parses what came before. A failed read is thrown to the reader where it would
 * have met it. Not thread-safe: one reader, as any stream.
 */
@NotThreadSafe
final class ReadAhead extends InputStream {
    /** Large enough that a hand-over is rare next to the work on its bytes. */
    static final int CHUNK_BYTES = 1 << 20;
    /** Chunks kept ahead: enough to ride out an uneven disk, little memory. */
    private static final int AHEAD = 4;

    private static final byte[] END = new byte[0];

    private final InputStream in;
    private final BlockingQueue<byte[]> chunks = new ArrayBlockingQueue<>(AHEAD);
    private final Thread reader;
    private volatile IOException failure;
    private volatile boolean closed;
    private byte[] chunk = new byte[0];
    private int pos;
    private boolean ended;

    ReadAhead(InputStream in, String name) {
        this.in = in;
        reader = new Thread(this::readAll, "envbench-read-ahead " + name);
        reader.setDaemon(true);
        reader.start();
    }

    private void readAll() {
        try {
            while (!closed) {
                byte[] b = new byte[CHUNK_BYTES];
                int n = in.readNBytes(b, 0, b.length);
                if (n > 0) {
                    hand(n == b.length ? b : Arrays.copyOf(b, n));
                }
                if (n < b.length) {
                    break;
                }
            }
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException e) { // the reader must hear of it, or it would wait for a chunk forever
            failure = new IOException(e.toString(), e);
        } catch (InterruptedException e) {
            return; // closed: nobody reads on
        }
        try {
            hand(END);
        } catch (InterruptedException e) {
            // closed: nobody reads on
        }
    }

    private void hand(byte[] b) throws InterruptedException {
        while (!closed && !chunks.offer(b, 100, TimeUnit.MILLISECONDS)) {
            // the reader is busy; wait while it is open
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (pos == chunk.length) {
            if (ended) {
                return -1;
            }
            try {
                chunk = chunks.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while reading");
            }
            pos = 0;
            if (chunk == END) {
                ended = true;
                if (failure != null) {
                    throw failure;
                }
            }
        }
        int n = Math.min(len, chunk.length - pos);
        System.arraycopy(chunk, pos, b, off, n);
        pos += n;
        return n;
    }

    @Override
    public void close() throws IOException {
        closed = true;
        reader.interrupt();
        try {
            reader.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        in.close();
    }
}
