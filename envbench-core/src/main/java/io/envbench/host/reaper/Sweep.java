package io.envbench.host.reaper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.envbench.base.environment.OwnerIdentity;

/**
 * The reaper's work, with the sweepers it is given: it reads the places the owner uses from its input until end of
 * file, waits until the owner process is gone, has every place swept by the sweeper of its kind, and ends. What was
 * removed goes to the reaper's log ({@link ReaperProcess#logFile}), which is deleted again when there was nothing to
 * remove (a clean owner leaves nothing).
 *
 * <p>Lines: {@code docker<TAB>address<TAB>TLS folder} (a Docker daemon; the folder empty without TLS),
 * {@code bare<TAB>folder} (bare-metal state files), {@code cgroup<TAB>folder} (a cgroup the owner made on the host),
 * {@code hostsettings<TAB>folder} (journals of host settings the owner changed, put back).
 */
public final class Sweep {
    /** How long an owner that closed the pipe may take to exit before the reaper gives up on it. */
    static final Duration OWNER_EXIT_WAIT = Duration.ofSeconds(60);
    /** How long a place that cannot be swept (a daemon restarting) is tried again. */
    static final Duration SWEEP_RETRY = Duration.ofSeconds(30);
    /** A reaper's log (kept when it removed something) is removed by a later reaper after this long. */
    static final Duration LOG_KEPT = Duration.ofDays(7);

    private final Map<String, Sweeper> sweepers;
    private final PrintStream log;

    /** @param log where what was done is said (the reaper's standard output, its log file) */
    public Sweep(List<Sweeper> sweepers, PrintStream log) {
        this.sweepers = sweepers.stream().collect(Collectors.toMap(Sweeper::kind, Function.identity()));
        this.log = log;
    }

    /** Watches owner {@code ownerPid}, reading its places from {@code in}, and sweeps once it is gone. */
    public void run(long ownerPid, InputStream in) throws IOException, InterruptedException {
        removeOldLogs(ReaperProcess.logFile(ownerPid).getParent());
        Optional<Long> ownerStart = OwnerIdentity.startTicks(ownerPid);
        Set<String> places = new LinkedHashSet<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
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

    private void prepare(String line) {
        String[] f = line.split("\t", 2);
        Sweeper s = f.length == 2 ? sweepers.get(f[0]) : null;
        if (s != null) {
            s.prepare(f[1], this::say);
        }
    }

    private int sweep(String line, long ownerPid) {
        String[] f = line.split("\t", 2);
        Sweeper s = f.length == 2 ? sweepers.get(f[0]) : null;
        return s == null ? 0 : s.sweep(f[1], ownerPid, this::say);
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

    private void say(String line) {
        log.println(Instant.now() + " " + line);
        log.flush();
    }
}
