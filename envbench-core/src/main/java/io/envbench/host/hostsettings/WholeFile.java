package io.envbench.host.hostsettings;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * A whole configuration file read, replaced and put back: whole or not at all (written to a file beside, synced, moved
 * over), with the mode it had.
 */
final class WholeFile {
    /** The mode of a configuration file made where there was none, as {@code /etc} files have. */
    static final String NEW_FILE_MODE = "rw-r--r--";

    private WholeFile() {}

    /** The file's bytes and mode; empty when there is no such file. */
    static Optional<Change.FileContent.Original> read(Path file) throws IOException {
        try {
            byte[] bytes = Files.readAllBytes(file);
            return Optional.of(Change.FileContent.Original.of(
                    bytes, PosixFilePermissions.toString(Files.getPosixFilePermissions(file))));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /** Puts the file back as it was: its bytes and mode, or deleted when it was absent. */
    static void putBack(Path file, Optional<Change.FileContent.Original> before) throws IOException {
        if (before.isEmpty()) {
            Files.deleteIfExists(file);
            return;
        }
        Optional<Change.FileContent.Original> now = read(file);
        if (now.equals(before)) {
            return; // never changed, or put back already
        }
        replace(file, before.get().bytes(), before.get().permissions());
    }

    /** Writes {@code content} to a file beside, with {@code permissions}, syncs it and moves it over {@code file}. */
    static void replace(Path file, byte[] content, String permissions) throws IOException {
        Path dir = file.getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
        }
        Path partial = dir.resolve("." + file.getFileName() + ".envbench-partial");
        try {
            try (FileChannel ch = FileChannel.open(
                    partial,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.wrap(content);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString(permissions));
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            if (Files.isRegularFile(partial, LinkOption.NOFOLLOW_LINKS)) {
                Files.deleteIfExists(partial);
            }
            throw new IOException("cannot write " + file + ": " + HostSettingsJournal.reason(e), e);
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            // some file systems cannot sync a folder; the file itself was synced
        }
    }
}
