package io.envbench.measure.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.envbench.base.container.ContainerEngine;

/**
 * Whether a container's cgroup has the controllers its figures come from, before they are read: a rootless engine, or
 * a cgroup v2 host that does not delegate {@code cpuset} or {@code memory} to the container's cgroup, leaves those
 * files out or gives every container the same session's, and figures read there would be zeros or another group's.
 * The answer is a message naming the missing controller and the fix, never a figure. Reads a cgroup and a procfs tree
 * given as folders, so a fixture tree stands for the real one.
 */
public final class CgroupControllers {
    /** What the figures need: CPU time and throttling, the CPUs it may run on, its memory. */
    static final List<String> NEEDED = List.of("cpu", "cpuset", "memory");

    private CgroupControllers() {}

    /**
     * What stops the container's figures from being its own, with the fix; empty when nothing does.
     *
     * @param cgroupRoot the cgroup mount ({@code /sys/fs/cgroup})
     * @param procRoot   the procfs root ({@code /proc})
     * @param pid        the container's main process on the host
     * @param engine     the engine it runs on, for the message
     * @param rootless   whether that engine runs rootless (its {@code info} says {@code name=rootless})
     */
    public static Optional<String> problem(
            Path cgroupRoot, Path procRoot, long pid, ContainerEngine engine, boolean rootless) {
        boolean unified = Files.exists(cgroupRoot.resolve("cgroup.controllers"));
        Map<String, String> paths;
        try {
            paths = paths(procRoot.resolve(pid + "/cgroup"));
        } catch (IOException e) {
            return Optional.empty(); // gone, or not readable: the reading says so itself
        }
        String engineName = engine.displayName();
        if (!unified) {
            if (rootless) {
                return Optional.of("rootless " + engineName + " on cgroup v1 cannot give a container cgroups of its own"
                        + " (its cpu, cpuset and memory figures would be the user session's, "
                        + paths.getOrDefault("memory", "?") + "); run " + engineName
                        + " as root, or use a cgroup v2 host that delegates cpu, cpuset and memory to the user"
                        + " (systemd: Delegate=cpu cpuset io memory pids in user@.service)");
            }
            List<String> missing = new ArrayList<>();
            for (String c : NEEDED) {
                String p = paths.get(c);
                if (p == null || !Files.isDirectory(cgroupRoot.resolve(c).resolve(strip(p)))) {
                    missing.add(c);
                }
            }
            return missing.isEmpty()
                    ? Optional.empty()
                    : Optional.of("the " + String.join(" and ", missing) + " controller"
                            + (missing.size() > 1 ? "s are" : " is") + " not mounted for the container's cgroup"
                            + " (cgroup v1); mount it under " + cgroupRoot + " (mount -t cgroup -o "
                            + missing.get(0) + " cgroup " + cgroupRoot.resolve(missing.get(0)) + ") and start "
                            + engineName + " again");
        }
        String own = strip(paths.getOrDefault("", ""));
        Path dir = cgroupRoot.resolve(own);
        Set<String> there;
        try {
            there = new HashSet<>(
                    Arrays.asList(Files.readString(dir.resolve("cgroup.controllers"), StandardCharsets.UTF_8)
                            .strip()
                            .split("\\s+")));
        } catch (IOException e) {
            return Optional.empty();
        }
        List<String> missing = NEEDED.stream().filter(c -> !there.contains(c)).toList();
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        String which = String.join(" and ", missing) + " controller" + (missing.size() > 1 ? "s" : "");
        String parent = dir.getParent() == null
                ? cgroupRoot.toString()
                : dir.getParent().toString();
        String fix = rootless
                ? "delegate them to the user that runs " + engineName + " (as root: mkdir -p"
                        + " /etc/systemd/system/user@.service.d; printf '[Service]\\nDelegate=cpu cpuset io memory"
                        + " pids\\n' > /etc/systemd/system/user@.service.d/delegate.conf; systemctl daemon-reload), then"
                        + " log in again and start " + engineName + " again"
                : "enable them for the containers' parent cgroup (as root: echo '"
                        + String.join(" ", missing.stream().map(c -> "+" + c).toList()) + "' > "
                        + parent + "/cgroup.subtree_control, and in each folder above it up to " + cgroupRoot
                        + "), then start the container again";
        return Optional.of("the container's cgroup /" + own + " has no " + which + " (cgroup v2"
                + (rootless ? ", rootless " + engineName : "") + ": not delegated to it), so its "
                + String.join(" and ", missing) + " figures would be missing or zeros; " + fix);
    }

    /** controller -> path, from {@code /proc/PID/cgroup}; the v2 entry ({@code 0::/path}) under "". */
    static Map<String, String> paths(Path procCgroup) throws IOException {
        Map<String, String> out = new HashMap<>();
        for (String line : Files.readAllLines(procCgroup, StandardCharsets.UTF_8)) {
            String[] f = line.split(":", 3);
            if (f.length == 3) {
                for (String controller : f[1].split(",")) {
                    out.put(controller, f[2]);
                }
            }
        }
        return out;
    }

    private static String strip(String p) {
        return p.startsWith("/") ? p.substring(1) : p;
    }
}
