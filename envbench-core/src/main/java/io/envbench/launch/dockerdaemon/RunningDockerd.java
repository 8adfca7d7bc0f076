package io.envbench.launch.dockerdaemon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.base.environment.OwnerIdentity;
import io.envbench.base.process.SocketListeners;

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

    public RunningDockerd {
        environment = List.copyOf(environment);
    }

    /** The dockerd listening on {@code socket} in the procfs tree {@code procRoot}; empty when none. */
    public static Optional<RunningDockerd> listeningOn(Path procRoot, Path socket) throws IOException {
        for (long pid : SocketListeners.of(procRoot, socket)) {
            if (!"dockerd".equals(read(procRoot.resolve(pid + "/comm")).strip())) {
                continue;
            }
            Optional<RunningDockerd> d = describe(procRoot, pid);
            if (d.isPresent()) {
                return d;
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
