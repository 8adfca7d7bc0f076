package io.envbench.host.cgroup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Moves a process into the root cgroup of every hierarchy it can write to: what the reaper does at its start, so that a
 * CI job cancelled by killing its whole cgroup (a systemd unit's stop, a runner that kills the job's scope) does not
 * take the reaper with it, and the reaper still removes what the job left. Only the process's own membership changes;
 * no cgroup is made, changed or removed. Where the files are read-only (a container) nothing moves, and it says so.
 */
public final class CgroupEscape {
    private CgroupEscape() {}

    /**
     * Writes {@code pid} into the root {@code cgroup.procs} of cgroup v2 (when {@code cgroupRoot} is the unified
     * hierarchy) or of each cgroup v1 hierarchy mounted under it.
     *
     * @return one line per hierarchy, what was done or why not (for the reaper's log)
     */
    public static List<String> toRoots(Path cgroupRoot, long pid) {
        List<String> said = new ArrayList<>();
        for (Path procs : rootProcFiles(cgroupRoot)) {
            try {
                Files.writeString(procs, pid + "\n", StandardCharsets.US_ASCII);
                said.add("moved to " + procs.getParent());
            } catch (IOException | SecurityException | UnsupportedOperationException e) {
                said.add("stays in its cgroup of " + procs.getParent() + " (" + e.getMessage() + ")");
            }
        }
        return said;
    }

    /** The root {@code cgroup.procs} of each hierarchy: the unified one, else every v1 mount (links counted once). */
    static List<Path> rootProcFiles(Path cgroupRoot) {
        if (Files.isRegularFile(cgroupRoot.resolve("cgroup.controllers"))) {
            return List.of(cgroupRoot.resolve("cgroup.procs"));
        }
        Set<Path> hierarchies = new LinkedHashSet<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(cgroupRoot)) {
            for (Path d : dirs) {
                Path procs = d.resolve("cgroup.procs");
                if (Files.exists(procs)) {
                    hierarchies.add(d.toRealPath());
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return hierarchies.stream().sorted().map(d -> d.resolve("cgroup.procs")).toList();
    }
}
