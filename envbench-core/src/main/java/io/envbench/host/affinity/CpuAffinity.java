package io.envbench.host.affinity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.envbench.base.units.CpuSet;
import net.jcip.annotations.ThreadSafe;

/**
 * Which CPUs a process may run on (its scheduler affinity, what {@code taskset} sets and {@code /proc/PID/status}'s
 * {@code Cpus_allowed_list} shows), set for every thread of a process with util-linux's {@code taskset}: new threads
 * and children inherit it, so a server pinned once it is ready stays pinned. Confines only processes EnvBench started
 * or made (its targets, their containers' processes, the docker-proxy of their ports): those end with the run, so
 * nothing is left to put back. Thread-safe (stateless but for the proc root).
 */
@ThreadSafe
public final class CpuAffinity {
    private static final Path TASKSET = Path.of("/usr/bin/taskset");
    private static final long TASKSET_SECONDS = 10;
    private static final int TASKSET_ATTEMPTS = 20;
    private static final Pattern GONE_THREAD = Pattern.compile("pid (\\d+)'s affinity: No such process");

    private final Path procRoot;

    /** This host's {@code /proc}. */
    public CpuAffinity() {
        this(Path.of("/proc"));
    }

    /** A proc tree at {@code procRoot} (a fixture in tests). */
    public CpuAffinity(Path procRoot) {
        this.procRoot = procRoot;
    }

    /** Whether this host can set affinities ({@code taskset} of util-linux is installed). */
    public static boolean available() {
        return Files.isExecutable(TASKSET);
    }

    /** {@code command} to be started on these CPUs only: {@code taskset -c LIST command...}. */
    public static List<String> confined(CpuSet cpus, List<String> command) {
        List<String> out = new ArrayList<>(command.size() + 3);
        out.addAll(List.of(TASKSET.toString(), "-c", cpus.toString()));
        out.addAll(command);
        return out;
    }

    /** The CPUs a process may run on, from its {@code status}; empty when it is gone or the line is missing. */
    public Optional<CpuSet> allowed(long pid) {
        Path status = procRoot.resolve(Long.toString(pid)).resolve("status");
        try (Stream<String> lines = Files.lines(status, StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.startsWith("Cpus_allowed_list:"))
                    .findFirst()
                    .map(l -> CpuSet.parseList(
                            "Cpus_allowed_list of " + pid,
                            l.substring(l.indexOf(':') + 1).trim()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Confines every thread of the process and of all its descendants to {@code cpus}.
     *
     * @return the PIDs confined (those that ended meanwhile are left out)
     * @throws IOException naming the process when {@code taskset} refuses (e.g. CPUs outside its container's cpuset)
     */
    public List<Long> confineTree(long pid, CpuSet cpus) throws IOException {
        List<Long> pids = new ArrayList<>();
        pids.add(pid);
        ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> pids.add(d.pid())));
        List<Long> done = new ArrayList<>();
        for (long p : pids) {
            if (confine(p, cpus)) {
                done.add(p);
            }
        }
        return done;
    }

    /**
     * Confines every thread of one process (not its children) to {@code cpus}; threads it starts later inherit them.
     *
     * @return false when it ended before it could be confined
     * @throws IOException naming the process when {@code taskset} refuses
     */
    public boolean confineProcess(long pid, CpuSet cpus) throws IOException {
        return confine(pid, cpus);
    }

    /**
     * Every thread of one process; false when it ended before it could be confined. {@code taskset -a} walks the
     * threads one by one and gives up on the first that ended meanwhile, which a process starting up does all the
     * time (its short-lived threads); such a walk is tried again, as its threads already confined stay so.
     */
    private boolean confine(long pid, CpuSet cpus) throws IOException {
        String out = "";
        for (int attempt = 1; attempt <= TASKSET_ATTEMPTS; attempt++) {
            ProcessBuilder b = new ProcessBuilder(
                            TASKSET.toString(), "-a", "-p", "-c", cpus.toString(), Long.toString(pid))
                    .redirectErrorStream(true);
            b.environment().put("LC_ALL", "C"); // its complaint is read below
            Process p = b.start();
            try {
                if (!p.waitFor(TASKSET_SECONDS, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IOException("taskset did not confine PID " + pid + " within " + TASKSET_SECONDS + " s");
                }
                out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
                throw new IOException("interrupted while confining PID " + pid, e);
            }
            if (p.exitValue() == 0) {
                return true;
            }
            if (!Files.exists(procRoot.resolve(Long.toString(pid)))) {
                return false; // ended meanwhile: nothing to confine
            }
            if (!aThreadEndedMeanwhile(pid, out)) {
                break;
            }
        }
        throw new IOException("could not confine PID " + pid + " to CPUs " + cpus + ": " + out);
    }

    /** Whether taskset's complaint names a thread of {@code pid} that is gone ("pid N's affinity: No such process"). */
    private boolean aThreadEndedMeanwhile(long pid, String tasksetOutput) {
        Matcher m = GONE_THREAD.matcher(tasksetOutput);
        return m.find()
                && !Files.exists(
                        procRoot.resolve(Long.toString(pid)).resolve("task").resolve(m.group(1)));
    }

    /**
     * The docker-proxy processes that carry a published host port (their command line holds {@code -host-port PORT}):
     * what a container's published port adds on the host side.
     */
    public List<Long> dockerProxies(int hostPort) {
        List<Long> found = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(procRoot, "[0-9]*")) {
            for (Path d : dirs) {
                try {
                    String[] args =
                            new String(Files.readAllBytes(d.resolve("cmdline")), StandardCharsets.UTF_8).split("\0");
                    if (args.length == 0
                            || !Path.of(args[0]).getFileName().toString().equals("docker-proxy")) {
                        continue;
                    }
                    for (int i = 0; i + 1 < args.length; i++) {
                        if (args[i].equals("-host-port") && args[i + 1].equals(Integer.toString(hostPort))) {
                            found.add(Long.parseLong(d.getFileName().toString()));
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // a process that ended while read
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return found;
    }
}
