package io.envbench.measure.results;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import net.jcip.annotations.NotThreadSafe;

/**
 * Lines ended by LF alone, a CR kept: {@link java.io.BufferedReader#readLine()} also ends a line at a CR, which would
 * cut a quoted label's CR out of it. Bytes are split at LF (never part of a longer UTF-8 character), and a line is
 * handed over as a range of the buffer ({@link #next()}), so a reader that needs a few fields of it makes no String of
 * the rest; {@link #readLine()} decodes it whole. Bytes that are not UTF-8 (a damaged file) become U+FFFD, so the damage
 * is reported with its line, not as a decoder error. Whether the last line had its LF is known once it is read ({@link
 * #lastLineCut()}), so a compressed file needs no second pass to tell.
 */
@NotThreadSafe
final class LfLines implements AutoCloseable {
    /** Large enough that a read from a file or an inflater moves many lines at once. */
    private static final int BUFFER_BYTES = 1 << 18;

    private final InputStream in;
    private byte[] buf = new byte[BUFFER_BYTES];
    private int pos;
    private int end;
    private int lineStart;
    private int lineEnd;
    private boolean cut;

    LfLines(InputStream in) {
        this.in = in;
    }

    /**
     * Moves to the next line: {@link #bytes()} from {@link #start()} to {@link #end()} (without the LF), valid until
     * the next call.
     *
     * @return false at the end of the file
     */
    boolean next() throws IOException {
        int from = pos;
        while (true) {
            byte[] b = buf;
            int to = end;
            for (int i = pos; i < to; i++) {
                if (b[i] == '\n') {
                    lineStart = from;
                    lineEnd = i;
                    pos = i + 1;
                    return true;
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
                lineStart = 0;
                lineEnd = kept;
                return kept > 0;
            }
            end += n;
        }
    }

    /** The buffer that holds the current line. */
    byte[] bytes() {
        return buf;
    }

    /** Where the current line starts in {@link #bytes()}. */
    int start() {
        return lineStart;
    }

    /** Where the current line ends in {@link #bytes()}: its LF, or the end of a cut last line. */
    int end() {
        return lineEnd;
    }

    /** The current line decoded. */
    String line() {
        return new String(buf, lineStart, lineEnd - lineStart, StandardCharsets.UTF_8);
    }

    /** @return the next line without its LF, or null at the end of the file */
    String readLine() throws IOException {
        return next() ? line() : null;
    }

    /** Whether the line last read is the file's last, and it had no LF: it was cut. */
    boolean lastLineCut() {
        return cut;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
