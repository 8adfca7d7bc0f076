package io.envbench.base.output;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Checks at the start that an output folder can be written: made when missing, then a file created and removed in
 * it. As root, permissions do not stop a write, but a read-only file system, a file where a folder should be, or a
 * full inode table do; each is an error naming the path and the fix, before anything runs.
 */
public final class OutputFolder {
    private OutputFolder() {}

    /**
     * @param dir  the folder, made with its parents when missing
     * @param what what the user calls it, e.g. {@code run directory (-o)}
     * @throws IOException naming the path, why, and what to do
     */
    public static void requireWritable(Path dir, String what) throws IOException {
        try {
            Files.createDirectories(dir);
            Path probe = Files.createTempFile(dir, ".envbench-write-check", ".tmp");
            Files.delete(probe);
        } catch (IOException e) {
            throw new IOException(
                    "cannot write the " + what + " " + dir + ": " + why(e)
                            + "; give a folder on a writable file system with free space",
                    e);
        }
    }

    /** An IOException naming the file and why it cannot be written. */
    static IOException cannotWrite(Path file, IOException e) {
        return new IOException("cannot write " + file + ": " + why(e), e);
    }

    /** Why a write failed, as a user reads it: the path that stood in the way, and the system's reason. */
    public static String why(IOException e) {
        if (e instanceof FileAlreadyExistsException f) {
            return f.getFile() + " is a file where a folder should be";
        }
        if (e instanceof NotDirectoryException
                || e instanceof FileSystemException fs && "Not a directory".equals(fs.getReason())) {
            return ((FileSystemException) e).getFile() + " is not a folder";
        }
        if (e instanceof NoSuchFileException n) {
            return n.getFile() + " does not exist";
        }
        if (e instanceof AccessDeniedException a) {
            return "access denied to " + a.getFile();
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason().toLowerCase(Locale.ROOT) + " (" + fs.getFile() + ")";
        }
        return e.getMessage() == null ? e.toString() : e.getMessage().toLowerCase(Locale.ROOT);
    }

    /** Whether a write failed for want of space (ENOSPC, or a quota). */
    public static boolean isDiskFull(String why) {
        String w = why.toLowerCase(Locale.ROOT);
        return w.contains("no space left") || w.contains("quota exceeded");
    }
}
