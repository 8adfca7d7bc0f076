package io.envbench.base.process;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import net.jcip.annotations.ThreadSafe;

/**
 * An exclusive lock on a file, held by this process until closed, and let go by the kernel however the process ends.
 *
 * <p>The operating system's file locks belong to a process, and closing any channel of a file lets go of every lock
 * the process holds on it; so a second lock of one file within this process is refused here, before the operating
 * system is asked. Which files this process holds is therefore the process's, not an object's: this class is the one
 * place that knows it.
 */
@ThreadSafe
public final class ProcessFileLock implements AutoCloseable {
    private static final Set<Path> HELD_BY_THIS_PROCESS = ConcurrentHashMap.newKeySet();

    private final Path file;
    private final FileChannel channel;
    private boolean closed;

    private ProcessFileLock(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    /** Why a lock was not had. */
    public enum Busy {
        /** Another owner in this process holds it. */
        IN_THIS_PROCESS,
        /** Another process holds it. */
        BY_ANOTHER_PROCESS
    }

    /** A lock, or who holds the file instead: {@link #holder()} is what the holder wrote into it, when another process. */
    public record Attempt(Optional<ProcessFileLock> lock, Optional<Busy> busy, String holder) {}

    /**
     * Locks {@code file} (made when missing) without waiting.
     *
     * @throws IOException when the file cannot be opened
     */
    public static Attempt tryLock(Path file) throws IOException {
        Path f = file.toAbsolutePath().normalize();
        if (!HELD_BY_THIS_PROCESS.add(f)) {
            return new Attempt(Optional.empty(), Optional.of(Busy.IN_THIS_PROCESS), "");
        }
        FileChannel ch = null;
        try {
            ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock l;
            try {
                l = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                l = null;
            }
            if (l == null) {
                String holder = Files.readString(f).strip();
                ch.close();
                HELD_BY_THIS_PROCESS.remove(f);
                return new Attempt(Optional.empty(), Optional.of(Busy.BY_ANOTHER_PROCESS), holder);
            }
            return new Attempt(Optional.of(new ProcessFileLock(f, ch)), Optional.empty(), "");
        } catch (IOException | RuntimeException e) {
            if (ch != null) {
                ch.close();
            }
            HELD_BY_THIS_PROCESS.remove(f);
            throw e;
        }
    }

    public Path file() {
        return file;
    }

    /** Replaces the file's text with {@code holder}, e.g. who holds it since when, for the next one who finds it busy. */
    public synchronized void describeHolder(String holder) throws IOException {
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(holder.getBytes(StandardCharsets.UTF_8)), 0);
    }

    /** Lets the lock go; the file stays. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            channel.close(); // releases the lock
        } catch (IOException e) {
            // the kernel lets the lock go with the descriptor
        } finally {
            HELD_BY_THIS_PROCESS.remove(file);
        }
    }
}
