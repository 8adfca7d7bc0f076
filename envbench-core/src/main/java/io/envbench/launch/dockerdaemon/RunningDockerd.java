package io.envbench.launch.dockerdaemon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.base.environment.OwnerIdentity;

/**
 * The dockerd process serving a unix socket, as {@code /proc} shows it: the process holding the socket's listening
 * inode ({@code /proc/net/unix}) whose command name is {@code dockerd} (a service manager that passes the socket holds
 * it too), with what it takes to start it again the same way. Immutable.
 *
 * @param pid          its PID
 * @param startTicks   its start in clock ticks since boot (tells it from a later process with its PID)
 * @param commandLine  its arguments
 * @param environment  its environment, {@code NAME=value} each ({@code PATH} finds containerd, runc and iptables)
 * @param workingDir   its working folder
 * @param log          the regular file its standard output goes to; empty when it is not a file (a terminal, a pipe)
 * @param systemdUnit  the systemd service it runs in (its cgroup {@code /system.slice/NAME.service}); empty when none
 */
public record RunningDockerd(
        long pid,
        long startTicks,
        DockerdCommandLine commandLine,
        List<String> environment,
        Path workingDir,
        Optional<Path> log,
        Optional<String> systemdUnit) {
    private static final Pattern SERVICE = Pattern.compile("/system\\.slice/([^/]+\\.service)$");
    private static final String LISTENING = "00010000";

    public RunningDockerd {
        environment = List.copyOf(environment);
    }

    /** The dockerd listening on {@code socket} in the procfs tree {@code procRoot}; empty when none. */
    public static Optional<RunningDockerd> listeningOn(Path procRoot, Path socket) throws IOException {
        Set<String> inodes = listeningInodes(procRoot, socket);
        if (inodes.isEmpty()) {
            return Optional.empty();
        }
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(
                procRoot, p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path process : processes) {
                if (!"dockerd".equals(read(process.resolve("comm")).strip()) || !holdsAny(process, inodes)) {
                    continue;
                }
                Optional<RunningDockerd> d =
                        describe(procRoot, Long.parseLong(process.getFileName().toString()));
                if (d.isPresent()) {
                    return d;
                }
            }
        }
        return Optional.empty();
    }

    /** Whether this process still runs (same PID, same start). */
    public boolean runs(Path procRoot) {
        return OwnerIdentity.startTicks(procRoot, pid).map(t -> t == startTicks).orElse(false);
    }

    private static Optional<RunningDockerd> describe(Path procRoot, long pid) {
        Path p = procRoot.resolve(Long.toString(pid));
        try {
            Optional<Long> start = OwnerIdentity.startTicks(procRoot, pid);
            if (start.isEmpty()) {
                return Optional.empty();
            }
            List<String> argv = nulSeparated(Files.readAllBytes(p.resolve("cmdline")));
            List<String> env = nulSeparated(Files.readAllBytes(p.resolve("environ")));
            Path cwd = Files.readSymbolicLink(p.resolve("cwd"));
            Optional<Path> log = Optional.empty();
            try {
                Path out = Files.readSymbolicLink(p.resolve("fd/1"));
                if (out.isAbsolute() && Files.isRegularFile(out)) {
                    log = Optional.of(out);
                }
            } catch (IOException e) {
                // no standard output: nothing to append to
            }
            Optional<String> unit = Optional.empty();
            for (String line : read(p.resolve("cgroup")).split("\n")) {
                Matcher m = SERVICE.matcher(line.strip());
                if (m.find()) {
                    unit = Optional.of(m.group(1));
                }
            }
            return Optional.of(new RunningDockerd(pid, start.get(), new DockerdCommandLine(argv), env, cwd, log, unit));
        } catch (IOException e) {
            return Optional.empty(); // it ended while we looked
        }
    }

    private static Set<String> listeningInodes(Path procRoot, Path socket) throws IOException {
        Set<String> names = new HashSet<>(List.of(socket.toString()));
        try {
            names.add(socket.toRealPath().toString()); // /var/run is often a link to /run
        } catch (IOException e) {
            // no such socket: none listens
        }
        Set<String> inodes = new HashSet<>();
        List<String> lines = List.of(read(procRoot.resolve("net/unix")).split("\n"));
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            String[] f = line.strip().split("\\s+");
            // Num RefCount Protocol Flags Type St Inode Path
            if (f.length >= 8 && LISTENING.equals(f[3]) && names.contains(f[7])) {
                inodes.add(f[6]);
            }
        }
        return inodes;
    }

    private static boolean holdsAny(Path process, Set<String> inodes) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(process.resolve("fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[") && inodes.contains(target.substring(8, target.length() - 1))) {
                        return true;
                    }
                } catch (IOException e) {
                    // closed while we looked
                }
            }
        } catch (IOException e) {
            return false; // gone, or not ours to read
        }
        return false;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static List<String> nulSeparated(byte[] bytes) {
        List<String> out = new ArrayList<>();
        for (String s : new String(bytes, StandardCharsets.UTF_8).split("\0")) {
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }
}
