package io.envbench.launch.docker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.github.dockerjava.api.model.Ulimit;
import io.envbench.base.process.SocketListeners;
import io.envbench.base.settings.InvalidSettingException;

/**
 * Podman as EnvBench uses it: rootful, through its Docker-compatible API service on {@link #SOCKET}, reached with the
 * same client, labels, reaper, readiness, death watch and probes as Docker. What differs is here: where its socket is,
 * what to do when it does not answer, and the limits its containers start with.
 *
 * <p>Limits: rootful Podman gives a container RLIMIT_NOFILE and RLIMIT_NPROC of 1048576 unless told otherwise, which a
 * Podman that may not raise its own hard limits (a host in a container, without {@code CAP_SYS_RESOURCE}) cannot set:
 * runc fails with "error setting rlimit type 7: operation not permitted". Docker's containers inherit dockerd's limits;
 * a Podman container here gets the limits of the Podman service itself, so both engines' containers start alike.
 */
public final class PodmanEngine {
    /** Where rootful Podman's API service listens ({@code podman system service}). */
    public static final String SOCKET = "unix:///run/podman/podman.sock";

    public static final Path SOCKET_PATH = Path.of("/run/podman/podman.sock");

    /** The command that serves the API, as root, until stopped. */
    public static final String SERVICE_COMMAND = "podman system service --time=0 " + SOCKET;

    private static final DockerDaemon.Settings SETTINGS =
            new DockerDaemon.Settings("placement: podman", "placement: podman", "placement: podman");

    /** The width of {@code /proc/PID/limits}' name column ({@code "%-25s "}). */
    private static final int LIMIT_NAME_COLUMNS = 26;

    private PodmanEngine() {}

    /** The Podman service, as a Docker-API daemon at {@link #SOCKET}. */
    public static DockerDaemon daemon() {
        return new DockerDaemon(SOCKET, Optional.empty(), SETTINGS, SETTINGS);
    }

    /**
     * Checks, without connecting, that Podman is installed and its API socket is there: a run that places a target on
     * Podman fails before anything starts otherwise.
     *
     * @param field the field that asked for Podman, e.g. {@code environments[2].placement}
     * @throws InvalidSettingException naming the field and the fix
     */
    public static void checkAvailable(String field) {
        checkAvailable(field, SOCKET_PATH, onPath("podman"));
    }

    static void checkAvailable(String field, Path socket, boolean installed) {
        if (!Files.exists(socket)) {
            throw new InvalidSettingException(field, missing(installed, socket));
        }
    }

    /** Why a Podman placement cannot run, and the fix; the same words for a missing socket and one that does not answer. */
    static String missing(boolean installed, Path socket) {
        String start = "start its API service as root: " + SERVICE_COMMAND
                + " (./envbench run, demo and setup do it when an experiment places a target on podman)";
        return installed
                ? "podman needs Podman's API service, and nothing serves " + socket + "; " + start
                : "podman needs Podman, which is not installed here; install it (Debian/Ubuntu as root: apt-get install"
                        + " podman), then " + start;
    }

    /**
     * The message for a Podman service that does not answer, with the innermost cause (the connection's own words speak
     * of Docker's settings, which do not apply here).
     */
    public static String notAnswering(Throwable failure) {
        Throwable c = failure;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        String why = c.getMessage() == null ? "" : ": " + c.getMessage().strip();
        return missing(onPath("podman"), SOCKET_PATH) + " (" + c.getClass().getSimpleName() + why + ")";
    }

    /**
     * The limits a Podman container starts with: the hard RLIMIT_NOFILE and RLIMIT_NPROC of the Podman process that
     * serves {@code socket}, as its {@code /proc/PID/limits} says; empty when no Podman process serves it here (a
     * socket-activated service not started yet: Podman's own defaults then).
     */
    static List<Ulimit> containerLimits(Path procRoot, Path socket) {
        try {
            for (long pid : SocketListeners.of(procRoot, socket)) {
                Path p = procRoot.resolve(Long.toString(pid));
                if ("podman"
                        .equals(Files.readString(p.resolve("comm"), StandardCharsets.UTF_8)
                                .strip())) {
                    return limits(Files.readAllLines(p.resolve("limits"), StandardCharsets.UTF_8));
                }
            }
        } catch (IOException e) {
            // gone while we looked: Podman's own defaults
        }
        return List.of();
    }

    /** {@code nofile} and {@code nproc} at their hard values, from a {@code /proc/PID/limits} text; unlimited ones left out. */
    static List<Ulimit> limits(List<String> limitsFile) {
        List<Ulimit> out = new ArrayList<>();
        for (String line : limitsFile) {
            String name =
                    line.startsWith("Max open files") ? "nofile" : line.startsWith("Max processes") ? "nproc" : null;
            if (name == null) {
                continue;
            }
            // "Max open files            20000                20000                files": the name in 26 columns,
            // then the soft limit, the hard one and the unit
            String[] f = line.length() > LIMIT_NAME_COLUMNS
                    ? line.substring(LIMIT_NAME_COLUMNS).strip().split("\\s+")
                    : new String[0];
            String hard = f.length >= 2 ? f[1] : "";
            if (hard.matches("\\d+")) {
                long h = Long.parseLong(hard);
                out.add(new Ulimit(name, h, h));
            }
        }
        return out;
    }

    private static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
