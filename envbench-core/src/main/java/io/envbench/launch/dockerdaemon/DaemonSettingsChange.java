package io.envbench.launch.dockerdaemon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import io.envbench.base.process.ProcessFileLock;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.host.hostsettings.HostSettingsJournal;
import io.envbench.host.hostsettings.ProcessPauser;
import io.envbench.host.hostsettings.Restore;
import io.envbench.launch.docker.DockerDaemon;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the local Docker daemon with the settings a run asks for ({@link #apply}) and puts its configuration back after
 * ({@link #restore()}, {@link #close()}), restarting it each time. A change is made only with
 * {@link RestartPermission#GRANTED}: a restart stops every container of the daemon.
 *
 * <p>Written down first, in a {@link HostSettingsJournal} of its own (what dockerd changes by itself,
 * {@link DaemonControl#filesItChanges()}, then the daemon restart with how dockerd ran, then {@code daemon.json}'s bytes
 * and mode or its absence, each fsync'd before the change), so that when this process is
 * killed its reaper, or the next EnvBench start's sweep, puts the file back byte for byte (or deletes it) and restarts
 * the daemon again. While a change is applied this process holds a lock on {@code docker-daemon.lock} in the journal's
 * folder: a second EnvBench process cannot change the same daemon's settings under the first one's run.
 *
 * <p>Typical use by a runner:
 * <pre>{@code
 * try (DaemonSettingsChange change = DaemonSettingsChange.open(daemon, permission)) {
 *     DaemonSettingsChange.Applied a = change.apply(new DaemonSettings(false));
 *     ... run the row; report a.now().describe() ...
 * } // restored, also on failure
 * }</pre>
 * Thread-safe: every method holds the object's monitor.
 */
public final class DaemonSettingsChange implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DaemonSettingsChange.class);
    /** The file in the journal folder locked while a change is applied. */
    static final String LOCK_FILE = "docker-daemon.lock";

    private final DockerDaemon daemon;
    private final Path defaultConfigFile;
    private final Path journalFolder;
    private final DaemonControl control;
    private final RestartPermission permission;
    private HostSettingsJournal journal;
    private ProcessFileLock lock;
    private DaemonSettings original;
    private Restored restored;

    private DaemonSettingsChange(
            DockerDaemon daemon,
            Path defaultConfigFile,
            Path journalFolder,
            DaemonControl control,
            RestartPermission permission) {
        this.daemon = daemon;
        this.defaultConfigFile = defaultConfigFile;
        this.journalFolder = journalFolder;
        this.control = control;
        this.permission = permission;
    }

    /**
     * The settings of {@code daemon}, changed only with {@code permission} {@link RestartPermission#GRANTED}: its
     * configuration in {@link DaemonConfigFile#DEFAULT} (or dockerd's {@code --config-file}), written down in
     * {@link HostSettingsJournal#defaultFolder()}, restarted by {@link DaemonRestart#onThisHost()}.
     *
     * @throws DaemonConfigException when the daemon is not reached through a local unix socket (it cannot be restarted)
     */
    public static DaemonSettingsChange open(DockerDaemon daemon, RestartPermission permission) throws IOException {
        return open(
                daemon,
                DaemonConfigFile.DEFAULT,
                HostSettingsJournal.defaultFolder(),
                DaemonRestart.onThisHost(),
                permission);
    }

    /**
     * As {@link #open(DockerDaemon, RestartPermission)}, with the configuration file dockerd reads unless its command
     * line names one, the journal folder, and how the daemon is found and restarted.
     */
    public static DaemonSettingsChange open(
            DockerDaemon daemon,
            Path defaultConfigFile,
            Path journalFolder,
            DaemonControl control,
            RestartPermission permission)
            throws IOException {
        DaemonRestart.socketOf(daemon.address()); // a remote daemon is refused now, before anything
        return new DaemonSettingsChange(daemon, defaultConfigFile, journalFolder, control, permission);
    }

    /**
     * What {@link #apply} did.
     *
     * @param before    the settings the daemon ran with
     * @param now       the settings it runs with now (what was asked)
     * @param restarted whether it was restarted (false: it had them already)
     * @param took      how long the change took, restart included
     */
    public record Applied(DaemonSettings before, DaemonSettings now, boolean restarted, Duration took) {}

    /**
     * What {@link #restore()} did.
     *
     * @param now       the settings the daemon runs with after it (those it had before the change when {@code complete})
     * @param restarted whether it was restarted (false: nothing had been changed)
     * @param complete  whether every change was put back (else the journal keeps the rest for the next start)
     * @param summary   one line for notes
     * @param took      how long it took, restart included
     */
    public record Restored(
            Optional<DaemonSettings> now, boolean restarted, boolean complete, String summary, Duration took) {}

    /** The settings the daemon runs with now: its command line's flags, then its configuration file, then Docker's defaults. */
    public synchronized DaemonSettings effective() throws IOException {
        return DaemonSettings.effective(commandLine(), defaultConfigFile);
    }

    /**
     * Makes the daemon run with {@code wanted}: nothing when it does already; else its configuration file is written
     * down and changed, the daemon restarted, and its settings read again and checked.
     *
     * @throws InvalidSettingException naming the setting and how to allow it, when a restart is needed and the permission
     *                                 is {@link RestartPermission#REFUSED} (nothing changed)
     * @throws DaemonConfigException   when the configuration file is not valid JSON, or dockerd's command line sets the
     *                                 setting (a value in the file would make it refuse to start), nothing changed
     * @throws IOException             when the change or the restart fails (the file may be changed: {@link #close()} puts
     *                                 it back), or another EnvBench process has changed the daemon's settings
     */
    public synchronized Applied apply(DaemonSettings wanted) throws IOException {
        if (restored != null) {
            throw new IllegalStateException("this daemon settings change was put back; open a new one");
        }
        long t0 = System.nanoTime();
        DockerdCommandLine cmd = commandLine();
        DaemonSettings now = DaemonSettings.effective(cmd, defaultConfigFile);
        if (now.equals(wanted)) {
            return new Applied(now, now, false, Duration.ofNanos(System.nanoTime() - t0));
        }
        if (permission != RestartPermission.GRANTED) {
            throw new InvalidSettingException(
                    now.userlandProxy() != wanted.userlandProxy()
                            ? DaemonConfigFile.USERLAND_PROXY
                            : DaemonConfigFile.STORAGE_DRIVER,
                    "the Docker daemon runs with " + now.describe()
                            + "; " + wanted.describe()
                            + " needs a restart of the daemon, which stops every container it runs. Allow it "
                            + "with --allow-docker-restart (or the experiment's allow-docker-restart), or run with "
                            + now.describe());
        }
        String[] keys = {DaemonConfigFile.USERLAND_PROXY, DaemonConfigFile.STORAGE_DRIVER};
        // the file gets userland-proxy always, and storage-driver whenever one is named: a flag of either clashes
        boolean[] written = {true, !wanted.storageDriver().isEmpty()};
        for (int i = 0; i < keys.length; i++) {
            Optional<String> flag = cmd.flag(keys[i], i == 0);
            if (written[i] && flag.isPresent()) {
                throw new DaemonConfigException("dockerd's command line sets --" + keys[i] + "=" + flag.get()
                        + ": EnvBench changes " + cmd.configFile(defaultConfigFile)
                        + ", and dockerd refuses to start with a setting given both ways. Remove the flag from dockerd's"
                        + " command line (and restart it), or run with " + now.describe() + "; nothing was changed");
            }
        }
        DaemonConfigFile file = new DaemonConfigFile(cmd.configFile(defaultConfigFile));
        byte[] content = file.contentWith(wanted); // a malformed file is refused here, before anything is written down
        control.checkRestartAllowed(daemon.address());
        lock();
        if (journal == null) {
            journal = HostSettingsJournal.open(journalFolder, ProcessPauser.SIGNALS, control);
        }
        if (original == null) {
            original = now;
        }
        log.info(
                "changing the Docker daemon {} from {} to {}: {} rewritten, daemon restarted",
                daemon.address(),
                now.describe(),
                wanted.describe(),
                file.path());
        for (Path side : control.filesItChanges()) { // written down first: put back last, after the daemon's restart
            journal.writeDown(side);
        }
        journal.changeDaemonConfig(daemon.address(), file.path(), content);
        DaemonSettings after = effective();
        if (!after.equals(wanted)) {
            throw new IOException("the Docker daemon " + daemon.address() + " runs with " + after.describe()
                    + " after its restart, not " + wanted.describe());
        }
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        log.info("the Docker daemon {} runs with {} ({} ms)", daemon.address(), after.describe(), took.toMillis());
        return new Applied(now, after, true, took);
    }

    /**
     * Puts the configuration file back byte for byte (or deletes it when it was absent), restarts the daemon, and reads
     * its settings again; nothing when nothing was changed. A second call returns the first result.
     */
    public synchronized Restored restore() {
        if (restored != null) {
            return restored;
        }
        long t0 = System.nanoTime();
        if (journal == null) {
            restored = new Restored(
                    Optional.empty(), false, true, "Docker daemon settings: nothing was changed", Duration.ZERO);
            unlock();
            return restored;
        }
        Restore r = journal.restore();
        Optional<DaemonSettings> now = Optional.empty();
        String summary = "Docker daemon settings put back: " + r.summary();
        boolean complete = r.complete();
        try {
            now = Optional.of(effective());
            if (!now.get().equals(original)) {
                complete = false;
                summary += "; but the daemon runs with " + now.get().describe() + ", not " + original.describe();
            }
        } catch (IOException e) {
            complete = false;
            summary += "; its settings cannot be read again: " + e.getMessage();
        }
        unlock();
        restored = new Restored(now, true, complete, summary, Duration.ofNanos(System.nanoTime() - t0));
        return restored;
    }

    /** {@link #restore()}, its result logged: for try-with-resources and cancel. */
    @Override
    public void close() {
        Restored r = restore();
        if (!r.complete()) {
            log.warn("{}", r.summary());
            r.now().ifPresent(s -> log.warn("the Docker daemon {} runs with {}", daemon.address(), s.describe()));
        } else if (r.restarted()) {
            log.info("{} ({} ms)", r.summary(), r.took().toMillis());
        }
    }

    private DockerdCommandLine commandLine() throws IOException {
        return control.commandLine(daemon.address())
                .orElseThrow(() -> new IOException(
                        "no Docker daemon runs at " + daemon.address() + ": start it (./envbench setup)"));
    }

    /** The lock that keeps a second EnvBench run (in this process or another) from changing this daemon's settings meanwhile. */
    private void lock() throws IOException {
        if (lock != null) {
            return;
        }
        Files.createDirectories(journalFolder);
        Path lockFile = journalFolder.resolve(LOCK_FILE);
        ProcessFileLock.Attempt a = ProcessFileLock.tryLock(lockFile);
        if (a.lock().isEmpty()) {
            throw new IOException("another EnvBench run has changed the settings of the Docker daemon "
                    + daemon.address() + " (it holds "
                    + lockFile.toAbsolutePath().normalize() + "); wait until it ends; nothing was changed");
        }
        lock = a.lock().get();
    }

    private void unlock() {
        if (lock != null) {
            lock.close();
            lock = null;
        }
    }
}
