package io.envbench.host.cgroup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which root {@code cgroup.procs} files the reaper writes itself into, on fixture trees of cgroup v1 and v2. */
class CgroupEscapeTest {
    @TempDir
    Path root;

    @Test
    void cgroupV2HasOneRoot() throws Exception {
        Files.writeString(root.resolve("cgroup.controllers"), "cpu memory pids\n");
        Files.writeString(root.resolve("cgroup.procs"), "");
        assertEquals(List.of(root.resolve("cgroup.procs")), CgroupEscape.rootProcFiles(root));
        List<String> said = CgroupEscape.toRoots(root, 4242);
        assertEquals("4242\n", Files.readString(root.resolve("cgroup.procs")));
        assertTrue(said.get(0).startsWith("moved to "), said.toString());
    }

    @Test
    void cgroupV1HasARootPerHierarchyAndALinkCountsOnce() throws Exception {
        for (String h : List.of("cpu,cpuacct", "memory", "pids")) {
            Files.createDirectories(root.resolve(h));
            Files.writeString(root.resolve(h).resolve("cgroup.procs"), "");
        }
        Files.createSymbolicLink(root.resolve("cpu"), root.resolve("cpu,cpuacct"));
        Files.createDirectories(root.resolve("empty-mount-point")); // nothing mounted: no cgroup.procs
        List<Path> files = CgroupEscape.rootProcFiles(root);
        assertEquals(3, files.size(), files.toString());
        CgroupEscape.toRoots(root, 7);
        for (String h : List.of("cpu,cpuacct", "memory", "pids")) {
            assertEquals("7\n", Files.readString(root.resolve(h).resolve("cgroup.procs")), h);
        }
    }

    @Test
    void aHierarchyThatCannotBeWrittenIsSaidNotThrown() throws Exception {
        Files.createDirectories(root.resolve("pids").resolve("cgroup.procs")); // a folder: no write can succeed
        List<String> said = CgroupEscape.toRoots(root, 7);
        assertEquals(1, said.size(), said.toString());
        assertTrue(said.get(0).startsWith("stays in its cgroup of " + root.resolve("pids")), said.toString());
    }
}
