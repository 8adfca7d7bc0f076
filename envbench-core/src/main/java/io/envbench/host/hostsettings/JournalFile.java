package io.envbench.host.hostsettings;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;

import net.jcip.annotations.NotThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A journal's file on disk, kept so that what it says holds after a crash at any moment: it is made whole or not at
 * all (written beside, fsync'd, moved in), readable by its owner only, each line is fsync'd before {@link #append}
 * returns, and its owner holds a lock on it while it lives so that a sweep leaves it alone. A journal rewritten to keep
 * only some changes is moved over whole too. The text is {@link JournalFormat}'s.
 *
 * <p>Not thread-safe: a live journal's file is used under its {@link HostSettingsJournal}'s monitor only.
 */
@NotThreadSafe
final class JournalFile {
    // logged under the journal's name, which log settings and readers of its lines know
    private static final Logger log = LoggerFactory.getLogger(HostSettingsJournal.class);
    /** A journal is readable by its owner only: a daemon's line holds the environment dockerd ran with. */
    private static final FileAttribute<?> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private JournalFile(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Makes the journal {@code file} with its header and {@code owner}'s labels, whole or not at all, and locks it.
     *
     * @throws IOException naming the file when it cannot be written (nothing is left behind)
     */
    static JournalFile create(Path file, Map<String, String> owner) throws IOException {
        Path dir = file.getParent();
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        FileChannel channel = null;
        try {
            // readable by its owner only: a daemon's line holds the environment dockerd ran with
            try (FileChannel p = FileChannel.open(
                    partial, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), OWNER_ONLY)) {
                writeFully(p, JournalFormat.HEADER + "\n" + JournalFormat.ownerLine(owner));
                p.force(true);
            }
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
            syncFolder(dir);
            channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            FileLock lock = channel.lock();
            return new JournalFile(file, channel, lock);
        } catch (IOException e) {
            if (channel != null) {
                channel.close();
            }
            Files.deleteIfExists(partial);
            Files.deleteIfExists(file);
            throw new IOException("cannot write the host settings journal " + file + ": " + e, e);
        }
    }

    Path path() {
        return file;
    }

    /** Appends {@code line} and has it on the disk before returning. */
    void append(String line) throws IOException {
        writeFully(channel, line);
        channel.force(true);
    }

    /** Releases the owner's lock and closes the file; it stays on disk. */
    void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // the channel's close releases it too
        }
        try {
            channel.close();
        } catch (IOException e) {
            log.debug("closing {}: {}", file, e.toString());
        }
    }

    /** Rewrites a journal with only {@code changes} (written beside and moved over: whole or the old one). */
    static void rewrite(Path journal, List<Change> changes, Map<String, String> owner) throws IOException {
        Path partial = journal.resolveSibling(journal.getFileName() + ".partial");
        StringBuilder text =
                new StringBuilder(JournalFormat.HEADER).append('\n').append(JournalFormat.ownerLine(owner));
        changes.forEach(c -> text.append(JournalFormat.line(c)));
        try (FileChannel p = FileChannel.open(
                partial,
                Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE),
                OWNER_ONLY)) {
            writeFully(p, text.toString());
            p.force(true);
        }
        Files.move(partial, journal, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncFolder(journal.getParent());
    }

    private static void writeFully(FileChannel ch, String text) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    private static void syncFolder(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            // some file systems cannot sync a folder; the file itself was synced
        }
    }
}
