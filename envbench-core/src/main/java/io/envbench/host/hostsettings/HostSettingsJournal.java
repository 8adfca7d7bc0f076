package io.envbench.host.hostsettings;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import io.envbench.base.environment.LeftoverCheck;
import io.envbench.base.environment.OwnerIdentity;
import io.envbench.base.environment.RunSession;
import io.envbench.host.reaper.ReaperProcess;
import net.jcip.annotations.GuardedBy;
import net.jcip.annotations.Immutable;
import net.jcip.annotations.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host settings one owner changed, written down before each change so that they can all be put back: at the end
 * of a run ({@link #restore()}), on cancel ({@link #close()}), by the owner's reaper seconds after a SIGKILL, and by
 * {@link #sweepLeftovers(Path, ProcessPauser, DaemonRestarter)} at the next start when the reaper died too.
 *
 * <p>A journal is a file in a folder ({@link #defaultFolder()} unless told): its owner's labels ({@link RunSession#labels},
 * host, machine, boot, PID namespace, PID and start tick), then one line per change, appended and fsync'd before the
 * change is made. A file is written down once, at its first change, so putting back gives the value it had before the
 * run however often it changed since. The owner holds a lock on its file while it lives; a sweeper restores a journal
 * only when {@link LeftoverCheck} says its owner is provably gone and the lock is free.
 *
 * <p>Thread-safe: every method that changes the journal holds its monitor. Many journals may exist in one process.
 */
@ThreadSafe
public final class HostSettingsJournal implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(HostSettingsJournal.class);
    /** Journal files end with this. */
    public static final String SUFFIX = ".journal";
    /** The value of {@link RunSession#LABEL_ENV} in a journal's owner labels. */
    static final String OWNER_ROLE = "host-settings";
    /** A journal is readable by its owner only: a daemon's line holds the environment dockerd ran with. */
    private static final FileAttribute<?> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;
    private final ProcessPauser pauser;
    private final DaemonRestarter restarter;

    @GuardedBy("this")
    private final List<Change> changes = new ArrayList<>();

    @GuardedBy("this")
    private final Set<Path> writtenDown = new HashSet<>();

    @GuardedBy("this")
    private final Set<Long> paused = new HashSet<>();

    @GuardedBy("this")
    private final Map<String, String> restartedDaemons = new HashMap<>();

    @GuardedBy("this")
    private Restore restored;

    private HostSettingsJournal(
            Path file, FileChannel channel, FileLock lock, ProcessPauser pauser, DaemonRestarter restarter) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
        this.pauser = pauser;
        this.restarter = restarter;
    }

    /** {@code <tmp>/envbench/hostsettings}, beside the bare-metal state files. */
    public static Path defaultFolder() {
        return Path.of(System.getProperty("java.io.tmpdir"), "envbench", "hostsettings");
    }

    /**
     * A new journal in {@code folder}, pausing processes with SIGSTOP and restarting Docker daemons with
     * {@code restarter} (the launch floor's {@code DaemonRestart.onThisHost()} on a real host); see
     * {@link #open(Path, ProcessPauser, DaemonRestarter)}.
     */
    public static HostSettingsJournal open(Path folder, DaemonRestarter restarter) throws IOException {
        return open(folder, ProcessPauser.SIGNALS, restarter);
    }

    /**
     * A new journal in {@code folder}: first the journals of dead owners there are put back ({@link #sweepLeftovers(Path, ProcessPauser, DaemonRestarter)}),
     * then this process's reaper is told of the folder, then the journal file is made (whole or not at all: written
     * beside and moved in).
     *
     * @param pauser how a process is paused and resumed ({@link ProcessPauser#SIGNALS}; tests on fixture trees record)
     * @param restarter restarts a Docker daemon when a change of its configuration is made or put back
     * @throws IOException naming the folder when it cannot be made or written
     */
    public static HostSettingsJournal open(Path folder, ProcessPauser pauser, DaemonRestarter restarter)
            throws IOException {
        Path dir = folder.toAbsolutePath().normalize();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IOException("cannot make the host settings journal folder " + dir + ": " + e, e);
        }
        sweepLeftovers(dir, pauser, restarter);
        ReaperProcess.ofThisJvm().watchHostSettings(dir);
        String name = "hostsettings-" + RunSession.runId() + "-"
                + OwnerIdentity.current().pid() + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        Path file = dir.resolve(name + SUFFIX);
        Path partial = dir.resolve(name + SUFFIX + ".partial");
        FileChannel channel = null;
        try {
            // readable by its owner only: a daemon's line holds the environment dockerd ran with
            try (FileChannel p = FileChannel.open(
                    partial, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), OWNER_ONLY)) {
                writeFully(p, JournalFormat.HEADER + "\n" + JournalFormat.ownerLine(RunSession.labels(OWNER_ROLE)));
                p.force(true);
            }
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
            syncFolder(dir);
            channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            FileLock lock = channel.lock();
            return new HostSettingsJournal(file, channel, lock, pauser, restarter);
        } catch (IOException e) {
            if (channel != null) {
                channel.close();
            }
            Files.deleteIfExists(partial);
            Files.deleteIfExists(file);
            throw new IOException("cannot write the host settings journal " + file + ": " + e, e);
        }
    }

    /** The journal file. */
    public Path file() {
        return file;
    }

    /** The changes written down so far, oldest first. */
    public synchronized List<Change> changes() {
        return List.copyOf(changes);
    }

    /**
     * Writes {@code value} (and a line end) into the host file {@code file}, after its value before was written down
     * (at its first change only). The file must exist: nothing is made.
     *
     * @throws WriteRefusedException when the kernel refuses the value (written down: putting back is then harmless)
     * @throws IOException naming the file when it cannot be read (nothing written down, nothing changed; the cause is a
     *                     {@link NoSuchFileException} when it is gone) or the journal cannot be written
     */
    public synchronized void write(Path file, String value) throws IOException {
        checkOpen();
        Path f = file.toAbsolutePath().normalize();
        if (!writtenDown.contains(f)) {
            String before;
            try {
                before = readValue(f);
            } catch (IOException e) {
                throw new IOException("cannot read " + f + " before changing it: " + reason(e), e);
            }
            append(new Change.FileValue(f, before));
            writtenDown.add(f);
        }
        try {
            Files.write(
                    f,
                    (value + "\n").getBytes(StandardCharsets.US_ASCII),
                    StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
        } catch (NoSuchFileException e) {
            throw new IOException("cannot write '" + value + "' to " + f + ": it is gone", e);
        } catch (IOException e) {
            throw new WriteRefusedException(f, value, reason(e), e);
        }
    }

    /**
     * Writes down the value the host file {@code file} has now, without changing it: for a setting another party changes
     * as a consequence of a change written down after it (dockerd sets its bridge's {@code route_localnet} when its
     * userland proxy is off). Put back as a written one is, after the later changes; written down at its first mention
     * only. A file that does not exist is not written down.
     *
     * @throws IOException naming the file when it cannot be read, or the journal cannot be written
     */
    public synchronized void writeDown(Path file) throws IOException {
        checkOpen();
        Path f = file.toAbsolutePath().normalize();
        if (writtenDown.contains(f) || !Files.exists(f)) {
            return;
        }
        String before;
        try {
            before = readValue(f);
        } catch (IOException e) {
            throw new IOException("cannot read " + f + " to write it down: " + reason(e), e);
        }
        append(new Change.FileValue(f, before));
        writtenDown.add(f);
    }

    /**
     * Pauses the process {@code pid} of the procfs tree {@code procRoot} (irqbalance), after writing down that it was
     * running, with its start tick; putting back resumes it only if that PID is still the same process.
     *
     * @throws IOException when the process is gone (nothing written down) or cannot be paused
     */
    public synchronized void pause(Path procRoot, long pid, String name) throws IOException {
        checkOpen();
        if (paused.contains(pid)) {
            return;
        }
        Optional<Long> start = OwnerIdentity.startTicks(procRoot, pid);
        if (start.isEmpty()) {
            throw new IOException(
                    name + " (PID " + pid + ") is not running (no " + procRoot.resolve(pid + "/stat") + ")");
        }
        append(new Change.PausedProcess(procRoot.toAbsolutePath().normalize(), pid, start.get(), name));
        paused.add(pid);
        pauser.pause(pid);
    }

    /**
     * Replaces the configuration file {@code configFile} of the Docker daemon at {@code daemonAddress} with
     * {@code content} and restarts the daemon so that it reads it. Written down first, in this order: that the daemon is
     * restarted, then the file's bytes and mode before (or its absence), at the first change of each only; putting back
     * (the latest first) writes the old bytes back, or deletes the file, and then restarts the daemon again. The file is
     * written beside and moved over, with the mode it had (a new one {@code rw-r--r--}, its folder made when missing).
     *
     * @throws IOException naming the file or the daemon when the file cannot be read or written (nothing changed) or the
     *                     daemon cannot be restarted (the file is changed: {@link #restore()} puts it back)
     */
    public synchronized void changeDaemonConfig(String daemonAddress, Path configFile, byte[] content)
            throws IOException {
        checkOpen();
        Path f = configFile.toAbsolutePath().normalize();
        String howItRuns = restartedDaemons.get(daemonAddress);
        if (howItRuns == null) {
            howItRuns = restarter
                    .howItRuns(daemonAddress)
                    .orElseThrow(() -> new IOException("no Docker daemon runs at " + daemonAddress
                            + ": start it (./envbench setup) before changing its configuration; nothing was changed"));
            append(new Change.DaemonRestarted(daemonAddress, howItRuns));
            restartedDaemons.put(daemonAddress, howItRuns);
        }
        if (!writtenDown.contains(f)) {
            Optional<Change.FileContent.Original> before;
            try {
                before = WholeFile.read(f);
            } catch (IOException e) {
                throw new IOException("cannot read " + f + " before changing it: " + reason(e), e);
            }
            append(new Change.FileContent(f, before));
            writtenDown.add(f);
        }
        WholeFile.replace(
                f,
                content,
                WholeFile.read(f).map(Change.FileContent.Original::permissions).orElse(WholeFile.NEW_FILE_MODE));
        restarter.restart(daemonAddress, howItRuns);
    }

    /**
     * Puts every change back, the latest first, and deletes the journal; a change whose object is gone is skipped, one
     * that fails is reported and the rest still put back (the journal then keeps only those, for a later sweep). Once
     * restored, the journal takes no more changes; a second call returns the first result.
     */
    public synchronized Restore restore() {
        if (restored != null) {
            return restored;
        }
        Undone u = undo(file, changes, pauser, restarter);
        Restore r = u.report();
        try {
            if (r.complete()) {
                Files.deleteIfExists(file);
            } else {
                keepOnly(file, u.failed(), JournalFormat.read(file).owner());
            }
        } catch (IOException e) {
            log.warn("could not tidy the host settings journal {}: {}", file, e.toString());
        } finally {
            closeChannel();
        }
        restored = r;
        return r;
    }

    /** Puts every change back ({@link #restore()}) and logs what was done; for cancel and try-with-resources. */
    @Override
    public void close() {
        Restore r = restore();
        logRestore(r);
    }

    /**
     * Puts back the journals in {@code folder} whose owners are provably gone ({@link LeftoverCheck}: same host and
     * machine, same PID namespace, no such process or a reused PID), using SIGSTOP/SIGCONT. A journal of a live owner or
     * of another host is kept; a damaged one is refused whole, named in the result and left for a person to read.
     * Cheap when the folder does not exist. Call it at the start of a run, before anything else changes the host.
     */
    public static Sweep sweepLeftovers(Path folder, DaemonRestarter restarter) {
        return sweepLeftovers(folder, ProcessPauser.SIGNALS, restarter);
    }

    /** As {@link #sweepLeftovers(Path, DaemonRestarter)}, resuming paused processes with {@code pauser}. */
    public static Sweep sweepLeftovers(Path folder, ProcessPauser pauser, DaemonRestarter restarter) {
        return sweepLeftovers(folder, pauser, restarter, LeftoverCheck.forThisProcess());
    }

    static Sweep sweepLeftovers(Path folder, ProcessPauser pauser, DaemonRestarter restarter, LeftoverCheck check) {
        List<Restore> restores = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        if (!Files.isDirectory(folder)) {
            return new Sweep(restores, kept, refused);
        }
        List<Path> journals = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*" + SUFFIX)) {
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
                    Undone u = undo(journal, contents.changes(), pauser, restarter);
                    if (u.report().complete()) {
                        Files.delete(journal);
                    } else {
                        keepOnly(journal, u.failed(), contents.owner());
                    }
                    logRestore(u.report());
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

    /**
     * What a sweep did. Immutable.
     *
     * @param restored a {@link Restore} per journal of a dead owner that was put back
     * @param kept     each journal left alone, with why (a live owner, another host)
     * @param refused  each journal that could not be read whole, named with its line and the fix
     */
    @Immutable
    public record Sweep(List<Restore> restored, List<String> kept, List<String> refused) {
        public Sweep {
            restored = List.copyOf(restored);
            kept = List.copyOf(kept);
            refused = List.copyOf(refused);
        }
    }

    private static FileLock tryLock(FileChannel ch) throws IOException {
        try {
            return ch.tryLock();
        } catch (OverlappingFileLockException e) {
            return null; // held in this JVM
        }
    }

    /** A restore's report, and the changes that failed (oldest first), which the journal keeps. */
    private record Undone(Restore report, List<Change> failed) {}

    /** Puts back {@code changes}, the latest first. */
    private static Undone undo(Path journal, List<Change> changes, ProcessPauser pauser, DaemonRestarter restarter) {
        List<String> restored = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<Change> failedChanges = new ArrayList<>();
        for (int i = changes.size() - 1; i >= 0; i--) {
            Change c = changes.get(i);
            Outcome o = undo(c, pauser, restarter);
            switch (o.kind) {
                case RESTORED -> restored.add(c.describe());
                case GONE -> skipped.add(c.describe() + ": skipped, " + o.why);
                case FAILED -> {
                    failed.add(c.describe() + ": could not be put back: " + o.why);
                    failedChanges.add(0, c);
                }
            }
        }
        return new Undone(new Restore(journal, restored, skipped, failed), failedChanges);
    }

    private enum Kind {
        RESTORED,
        GONE,
        FAILED
    }

    private record Outcome(Kind kind, String why) {}

    private static Outcome undo(Change change, ProcessPauser pauser, DaemonRestarter restarter) {
        if (change instanceof Change.FileContent c) {
            try {
                WholeFile.putBack(c.file(), c.before());
                return new Outcome(Kind.RESTORED, "");
            } catch (IOException e) {
                return new Outcome(Kind.FAILED, reason(e));
            }
        }
        if (change instanceof Change.DaemonRestarted d) {
            try {
                restarter.restart(d.daemonAddress(), d.howItRuns());
                return new Outcome(Kind.RESTORED, "");
            } catch (IOException | RuntimeException e) {
                return new Outcome(Kind.FAILED, e.getMessage() == null ? e.toString() : e.getMessage());
            }
        }
        if (change instanceof Change.FileValue f) {
            try {
                if (readValue(f.file()).equals(f.before())) {
                    return new Outcome(
                            Kind.RESTORED, ""); // never changed (the kernel refused the new value), or put back already
                }
                Files.write(
                        f.file(),
                        (f.before() + "\n").getBytes(StandardCharsets.US_ASCII),
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING);
                return new Outcome(Kind.RESTORED, "");
            } catch (NoSuchFileException e) {
                return new Outcome(Kind.GONE, "its object is gone (no " + f.file() + ")");
            } catch (IOException e) {
                String why = reason(e);
                return why.contains("No such device")
                        ? new Outcome(Kind.GONE, "its object is gone (" + why + ")")
                        : new Outcome(Kind.FAILED, why);
            }
        }
        Change.PausedProcess p = (Change.PausedProcess) change;
        Optional<Long> start = OwnerIdentity.startTicks(p.procRoot(), p.pid());
        if (start.isEmpty()) {
            return new Outcome(Kind.GONE, "the process is gone");
        }
        if (start.get() != p.startTicks()) {
            return new Outcome(
                    Kind.GONE,
                    "PID " + p.pid() + " is now another process (started at tick " + start.get() + ", not "
                            + p.startTicks() + ")");
        }
        try {
            pauser.resume(p.pid());
            return new Outcome(Kind.RESTORED, "");
        } catch (IOException e) {
            return new Outcome(Kind.FAILED, reason(e));
        }
    }

    /** Rewrites a journal with only {@code changes} (written beside and moved over: whole or the old one). */
    private static void keepOnly(Path journal, List<Change> changes, Map<String, String> owner) throws IOException {
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

    private void append(Change change) throws IOException {
        try {
            writeFully(channel, JournalFormat.line(change));
            channel.force(true);
        } catch (IOException e) {
            throw new IOException(
                    "cannot write down " + change.describe() + " in " + file + " (" + reason(e)
                            + "); nothing was changed",
                    e);
        }
        changes.add(change);
    }

    private void checkOpen() {
        if (restored != null) {
            throw new IllegalStateException(
                    "the host settings journal " + file + " was put back and closed; open a new one");
        }
    }

    private void closeChannel() {
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

    static String readValue(Path file) throws IOException {
        String s = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII);
        while (s.endsWith("\n")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
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

    /** The kernel's words for an I/O error ({@code Operation not permitted}, {@code Input/output error}). */
    static String reason(IOException e) {
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    private static void logRestore(Restore r) {
        r.restored().forEach(s -> log.debug("put back {}", s));
        r.skipped().forEach(s -> log.info("{}", s));
        r.failed().forEach(s -> log.warn("{}; kept in {} for the next start", s, r.journal()));
        if (!r.restored().isEmpty() || !r.complete()) {
            log.info("host settings: {}", r.summary());
        }
    }
}
