package io.envbench.control.reaper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

import io.envbench.base.environment.OwnerIdentity;
import io.envbench.base.environment.TargetStartException;
import io.envbench.host.cgroup.TransientMemoryCgroup;
import io.envbench.host.hostsettings.HostSettingsJournal;
import io.envbench.host.reaper.ReaperProcess;
import io.envbench.launch.bare.BareMetalLauncher;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerReaper;
import io.envbench.launch.dockerdaemon.DaemonRestart;

/**
 * The reaper process: started by {@link ReaperProcess} with the owner's PID, it reads the places the owner
 * uses from standard input until end of file, waits until the owner process is gone, sweeps every place, and
 * exits. What it removed goes to its log ({@link ReaperProcess#logFile}), which is deleted again when there was nothing to
 * remove (a clean owner leaves nothing).
 *
 * <p>Lines: {@code docker<TAB>address<TAB>TLS folder} (a Docker daemon; the folder empty without TLS),
 * {@code bare<TAB>folder} (bare-metal state files), {@code cgroup<TAB>folder} (a cgroup the owner made on the host),
 * {@code hostsettings<TAB>folder} (journals of host settings the owner changed, put back).
 */
public final class Reaper {
    /** How long an owner that closed the pipe may take to exit before the reaper gives up on it. */
    static final Duration OWNER_EXIT_WAIT = Duration.ofSeconds(60);
    /** How long a place that cannot be swept (a daemon restarting) is tried again. */
    static final Duration SWEEP_RETRY = Duration.ofSeconds(30);

    private Reaper() {}

    /** A reaper's log (kept when it removed something) is removed by a later reaper after this long. */
    static final Duration LOG_KEPT = Duration.ofDays(7);

    public static void main(String[] args) throws IOException, InterruptedException {
        long ownerPid = Long.parseLong(args[0]);
        removeOldLogs(ReaperProcess.logFile(ownerPid).getParent());
        Optional<Long> ownerStart = OwnerIdentity.startTicks(ownerPid);
        Set<String> places = new LinkedHashSet<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (places.add(line)) {
                    prepare(line);
                }
            }
        }
        long eof = System.nanoTime();
        long deadline = eof + OWNER_EXIT_WAIT.toNanos();
        while (alive(ownerPid, ownerStart)) {
            if (System.nanoTime() > deadline) {
                say("owner PID " + ownerPid + " closed the pipe but still runs after " + OWNER_EXIT_WAIT.toSeconds()
                        + " s; leaving its resources to the next start's sweep");
                return;
            }
            Thread.sleep(20);
        }
        int removed = 0;
        boolean trouble = false;
        for (String place : places) {
            long until = System.nanoTime() + SWEEP_RETRY.toNanos();
            while (true) {
                try {
                    removed += sweep(place, ownerPid);
                    break;
                } catch (RuntimeException e) {
                    if (System.nanoTime() > until) {
                        say("could not sweep " + place.replace('\t', ' ') + ": " + e + "; the next start's sweep will");
                        trouble = true;
                        break;
                    }
                    Thread.sleep(500);
                }
            }
        }
        if (removed == 0 && !trouble) {
            Files.deleteIfExists(ReaperProcess.logFile(ownerPid));
        } else {
            say("owner PID " + ownerPid + " gone; " + removed + " leftovers removed "
                    + (System.nanoTime() - eof) / 1_000_000 + " ms after its pipe closed");
        }
    }

    /** Connects early, so classes are loaded and the daemon known while the owner lives; a daemon that is down is tried again at the sweep. */
    private static void prepare(String place) {
        String[] f = place.split("\t", 2);
        if (f.length == 2 && ReaperProcess.DOCKER.equals(f[0])) {
            try {
                DockerConnection.connect(daemonOf(f[1]));
            } catch (Exception e) {
                say("daemon " + place.replace('\t', ' ') + " not reached yet (" + e.getMessage()
                        + "); tried again at the sweep");
            }
        }
    }

    /** {@code address<TAB>TLS folder} (the folder empty: no TLS); a line of an older owner has the address alone. */
    static DockerDaemon daemonOf(String field) {
        String[] f = field.split("\t", 2);
        String folder = f.length == 2 ? f[1].trim() : "";
        return DockerDaemon.of(f[0], folder.isEmpty() ? Optional.empty() : Optional.of(Path.of(folder)));
    }

    private static int sweep(String place, long ownerPid) {
        String[] f = place.split("\t", 2);
        if (f.length != 2) {
            return 0;
        }
        if (ReaperProcess.DOCKER.equals(f[0])) {
            DockerReaper.Sweep sweep;
            try {
                sweep = new DockerReaper(DockerConnection.connect(daemonOf(f[1]))).sweep();
            } catch (TargetStartException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
            for (DockerReaper.Decision d : sweep.decisions()) {
                if (d.removed()) {
                    say("removed " + d.kind() + " " + d.id() + " " + d.name() + " on "
                            + daemonOf(f[1]).address() + " (" + d.why() + ")");
                }
            }
            return sweep.removed();
        }
        if (ReaperProcess.CGROUP.equals(f[0])) {
            return removeCgroup(Path.of(f[1]));
        }
        if (ReaperProcess.HOST_SETTINGS.equals(f[0])) {
            return restoreHostSettings(Path.of(f[1]));
        }
        if (ReaperProcess.BARE.equals(f[0])) {
            int stopped = new BareMetalLauncher(Path.of(f[1])).reapLeftovers();
            if (stopped > 0) {
                say("stopped " + stopped + " bare-metal process(es) of owner PID " + ownerPid + " (state in " + f[1]
                        + ")");
            }
            return stopped;
        }
        return 0;
    }

    /** A cgroup the owner made and did not remove (see {@link TransientMemoryCgroup#removeLeftover}). @return 1 when it was there */
    static int removeCgroup(Path cgroup) {
        try {
            if (!TransientMemoryCgroup.removeLeftover(cgroup)) {
                return 0;
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot remove the cgroup " + cgroup + ": " + e, e);
        }
        say("removed the cgroup " + cgroup + " and stopped what ran in it");
        return 1;
    }

    /** Journals of dead owners in {@code folder} put back (see {@link HostSettingsJournal#sweepLeftovers}). @return how many */
    static int restoreHostSettings(Path folder) {
        HostSettingsJournal.Sweep sweep = HostSettingsJournal.sweepLeftovers(folder, DaemonRestart.onThisHost());
        for (var r : sweep.restored()) {
            say("put back host settings: " + r.summary());
            r.skipped().forEach(Reaper::say);
            r.failed().forEach(Reaper::say);
        }
        sweep.refused().forEach(Reaper::say);
        return sweep.restored().size();
    }

    /** Logs of earlier reapers older than {@link #LOG_KEPT}: what they removed is long known. */
    static void removeOldLogs(Path folder) {
        Instant before = Instant.now().minus(LOG_KEPT);
        try (var logs = Files.newDirectoryStream(folder, "reaper-*.log")) {
            for (Path log : logs) {
                if (Files.getLastModifiedTime(log).toInstant().isBefore(before)) {
                    Files.deleteIfExists(log);
                }
            }
        } catch (IOException e) {
            // no folder yet, or one we may not read: nothing to tidy
        }
    }

    private static boolean alive(long pid, Optional<Long> start) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isPresent()
                && !OwnerIdentity.isZombie(pid)
                && (start.isEmpty() || start.equals(OwnerIdentity.startTicks(pid)));
    }

    private static void say(String line) {
        System.out.println(Instant.now() + " " + line);
        System.out.flush();
    }
}
