package io.envbench.host.hostsettings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * <p>The journal keeps the changes of one live owner and makes them; its file's durability is {@link JournalFile}'s,
 * putting changes back is {@link PutBack}'s (the same for a restore and a sweep), and deciding which dead owners'
 * journals a sweep may put back is {@link LeftoverSweep}'s.
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

    private final Path file;
    private final JournalFile onDisk;
    private final ProcessPauser pauser;
    private final DaemonRestarter restarter;
    private final PutBack putBack;

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

    private HostSettingsJournal(JournalFile onDisk, ProcessPauser pauser, DaemonRestarter restarter) {
        this.file = onDisk.path();
        this.onDisk = onDisk;
        this.pauser = pauser;
        this.restarter = restarter;
        this.putBack = new PutBack(pauser, restarter);
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
        JournalFile onDisk = JournalFile.create(dir.resolve(name + SUFFIX), RunSession.labels(OWNER_ROLE));
        return new HostSettingsJournal(onDisk, pauser, restarter);
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
        PutBack.Undone u = putBack.all(file, changes);
        Restore r = u.report();
        try {
            if (r.complete()) {
                Files.deleteIfExists(file);
            } else {
                JournalFile.rewrite(file, u.failed(), JournalFormat.read(file).owner());
            }
        } catch (IOException e) {
            log.warn("could not tidy the host settings journal {}: {}", file, e.toString());
        } finally {
            onDisk.close();
        }
        restored = r;
        return r;
    }

    /** Puts every change back ({@link #restore()}) and logs what was done; for cancel and try-with-resources. */
    @Override
    public void close() {
        Restore r = restore();
        PutBack.log(r);
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
        return LeftoverSweep.sweep(folder, new PutBack(pauser, restarter), LeftoverCheck.forThisProcess());
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

    private void append(Change change) throws IOException {
        try {
            onDisk.append(JournalFormat.line(change));
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

    static String readValue(Path file) throws IOException {
        String s = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII);
        while (s.endsWith("\n")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
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
}
