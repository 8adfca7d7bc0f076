package io.envbench.host.hostsettings;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import io.envbench.base.environment.LeftoverCheck;
import io.envbench.host.hostsettings.HostSettingsJournal.Sweep;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sweep of a journal folder, for owners that died without putting their changes back and whose reaper died too:
 * each journal whose owner is provably gone ({@link LeftoverCheck}) and whose lock is free is put back and deleted, or
 * rewritten with the changes that failed; a live owner's or another host's journal is kept, a damaged one refused
 * whole and left for a person to read. Deciding whose journal may be touched is its own idea, apart from keeping one.
 */
final class LeftoverSweep {
    // logged under the journal's name, which log settings and readers of its lines know
    private static final Logger log = LoggerFactory.getLogger(HostSettingsJournal.class);

    private LeftoverSweep() {}

    /**
     * Puts back the journals in {@code folder} whose owners {@code check} finds gone and whose lock is free, each with
     * {@code putBack}; cheap when the folder does not exist.
     */
    static Sweep sweep(Path folder, PutBack putBack, LeftoverCheck check) {
        List<Restore> restores = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        if (!Files.isDirectory(folder)) {
            return new Sweep(restores, kept, refused);
        }
        List<Path> journals = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*" + HostSettingsJournal.SUFFIX)) {
            files.forEach(journals::add);
        } catch (IOException e) {
            refused.add("cannot list the host settings journals in " + folder + ": " + e);
            return new Sweep(restores, kept, refused);
        }
        journals.sort(null);
        for (Path journal : journals) {
            try {
                JournalFormat.Contents contents = JournalFormat.read(journal);
                LeftoverCheck.Verdict verdict = check.judge(contents.owner());
                if (!verdict.reap()) {
                    kept.add(journal + " kept: " + verdict.why());
                    if (verdict.ownerUnseen()) {
                        log.info("host settings journal {} kept: {}", journal, verdict.why());
                    }
                    continue;
                }
                // opened only now: closing a channel may drop every lock this JVM holds on the file, its owner's too
                try (FileChannel ch = FileChannel.open(journal, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    FileLock lock = tryLock(ch);
                    if (lock == null) {
                        kept.add(journal + " kept: another process holds it (a sweep putting it back)");
                        continue;
                    }
                    contents = JournalFormat.read(journal); // as it is now that it is ours
                    PutBack.Undone u = putBack.all(journal, contents.changes());
                    if (u.report().complete()) {
                        Files.delete(journal);
                    } else {
                        JournalFile.rewrite(journal, u.failed(), contents.owner());
                    }
                    PutBack.log(u.report());
                    restores.add(u.report());
                }
            } catch (NoSuchFileException e) {
                // its owner closed it, or another sweep finished it, while we looked
            } catch (IOException e) {
                refused.add(e.getMessage());
                log.warn("{}", e.getMessage());
            }
        }
        return new Sweep(restores, kept, refused);
    }

    private static FileLock tryLock(FileChannel ch) throws IOException {
        try {
            return ch.tryLock();
        } catch (OverlappingFileLockException e) {
            return null; // held in this JVM
        }
    }
}
